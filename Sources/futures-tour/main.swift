import Foundation
import Futures

// The tour of swift-futures: the four libraries' stories told against a small web site that the tour
// serves itself on 127.0.0.1, then (with --features) a chapter per feature.
//
//   swift run futures-tour             # the stories (under a minute)
//   swift run futures-tour --features  # the stories, then every feature chapter

print("swift-futures: a tour")
print("=====================")
let site: TourSite
do {
    site = try TourSite()
} catch {
    print("could not start the tour's web site on 127.0.0.1: \(error)")
    exit(1)
}
print("The tour's web site is up at http://127.0.0.1:\(site.server.port) (it never leaves this machine).")
let client = SiteClient(site: site)
let tour = Stopwatch()

var rows: [StoryRow] = []
rows.append(await storyBlogChain(client))
rows.append(await storyLogIn(client))
rows.append(await storyBolts(client))
rows.append(await storyStream(client))
rows.append(contentsOf: await storyCrawl(client))
printSummary(rows, totalMilliseconds: tour.milliseconds, site: site)

if CommandLine.arguments.contains("--features") {
    print("\nFeature chapters")
    print("================")
    tourBrightFuturesChaining()
    tourBrightFuturesContexts()
    await tourSimpleFutures()
    tourBolts()
    tourCancellation()
    await tourDeferred()
    await tourTime()
    await tourCombinators()
    await tourLimiter()
    await tourTracing()
    await tourPendingFutures()
    await tourProgress(site: site)
}
site.server.stop()
print("\nEnd of the tour. `swift run futures-tour --features` adds a chapter per feature; `swift test` runs the tests.")
