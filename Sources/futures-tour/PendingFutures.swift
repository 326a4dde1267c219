import Futures
import Synchronization

/// Chapter: a program that hangs on a forgotten promise, and the one call that finds it.
func tourPendingFutures() async {
    print("\n== What is still pending: finding a forgotten promise ==")

    // Tracking is off by default (and then costs nothing); turn it on while you hunt a hang.
    FuturesDiagnostics.tracksPendingFutures = true
    defer { FuturesDiagnostics.tracksPendingFutures = false }

    // The settings screen: load the theme, name it, draw the screen. The store keeps the request's
    // promise, and nobody ever answers it: the screen waits forever.
    let store = SettingsStore()
    let screen = store.loadTheme()
        .map { theme in theme.capitalized }
        .flatMap { theme in drawScreen(theme) }

    // The program "hangs" here; the tour waits a fifth of a second instead of forever.
    if case .failure(.timedOut) = await screen.timeout(after: .milliseconds(200)).settledResult() {
        print("the screen is still not drawn after 200 ms; what is it waiting for?")
    }

    // One call: every pending future, by chain, with where it was made and what it waits for. The
    // chain starts at the promise nobody completes.
    print(FuturesDiagnostics.pendingFuturesReport())
    withExtendedLifetime(screen) {}
}

/// Keeps the promises of requests it is waiting for — and forgets to answer them.
private final class SettingsStore: Sendable {
    private let waiting = Mutex<[Promise<String, MirrorError>]>([])

    func loadTheme() -> Future<String, MirrorError> {
        let reply = Promise<String, MirrorError>()  // never completed: the bug
        waiting.withLock { $0.append(reply) }
        return reply.future
    }
}

/// Draws the screen for `theme`, on a global queue.
private func drawScreen(_ theme: String) -> Future<String, MirrorError> {
    Future { complete in complete(.success("screen in \(theme)")) }
}

extension String {
    /// The first letter uppercased.
    fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
