import Foundation
import Futures
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Chapter: progress reported through promises, added up by combinators, watched as callbacks, as an
/// AsyncSequence and through Foundation's `Progress`; a download that reports its bytes.
func tourProgress(site: TourSite) async {
    print("\n== Progress ==")

    // Three downloads of 100 units each, declared when their promises are made, and one step that
    // reports nothing (it counts as one unit).
    let downloads = (0..<3).map { _ in Promise<Data, any Error>(progressTotal: 100) }
    let settings = Promise<Data, any Error>()
    let all = (downloads.map(\.future) + [settings.future]).sequence()
    let sizes = all.map(immediateExecutionContext) { parts in parts.map(\.count) }
    let seen = Mutex<[Int]>([])
    sizes.progress.onUpdate(immediateExecutionContext) { snapshot in
        seen.withLock { $0.append(Int(snapshot.fractionCompleted * 100)) }
    }
    let foundation = sizes.foundationProgress()
    for step in stride(from: 25, through: 100, by: 25) {
        for download in downloads { download.reportProgress(completed: Int64(step)) }
    }
    print("percent seen by the callback:", seen.withLock { $0.map(String.init).joined(separator: " ") })
    print("Foundation.Progress:", foundation.completedUnitCount, "of", foundation.totalUnitCount)
    for download in downloads { download.success(Data(count: 10)) }
    settings.success(Data())
    print("after completion, fraction:", foundation.fractionCompleted, "sizes:", await sizes.settledResult())

    // The same updates as an AsyncSequence: it ends when the future completes.
    let job = Promise<Void, Never>(progressTotal: 4)
    let reader = Task {
        var last = ProgressSnapshot(completed: 0, total: 0)
        for await snapshot in job.future.progress.updates { last = snapshot }
        return last
    }
    for step in 1...4 { job.reportProgress(completed: Int64(step)) }
    job.success(())
    let last = await reader.value
    print("the sequence ended with", last.completed, "of", last.total, "finished:", last.isFinished)

    // A download that reports bytes received of the content length.
    let configuration = URLSessionConfiguration.ephemeral
    configuration.connectionProxyDictionary = [:]
    let download = URLSession(configuration: configuration).dataFutureReportingProgress(
        for: URLRequest(url: site.url("/posts"))
    )
    let bytes = try? await download.get().0.count
    let final = download.progress.current
    print(
        "downloaded \(bytes ?? 0) bytes; progress:", final.completed, "of", final.total, "finished:", final.isFinished)
}
