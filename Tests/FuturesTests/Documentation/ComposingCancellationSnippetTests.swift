import Foundation
import Synchronization
import Testing

@testable import Futures

/// The code of the Cancellation article's "Composing cancellation across shared work", as it is shown.
@Suite("Snippets: composing cancellation across shared work")
struct ComposingCancellationSnippetTests {
    @Test func aHandlePerConsumer() {
        let download = Promise<Data, any Error>()
        download.onCancellationRequested {
            download.tryFailure(FuturesError.cancelled)
        }
        let thumbnail = download.future.consumer()
        let preview = download.future.consumer()
        // the preview still waits: the download keeps running
        thumbnail.requestCancellation()
        // every consumer asked: the download is asked to stop
        preview.requestCancellation()
        #expect((download.future.error as? FuturesError) == .cancelled)
    }

    @Test func watchingWithoutConsuming() {
        let openRequests = OpenRequests(1)
        let request = Promise<Int, any Error>()
        request.future.observe(immediateExecutionContext) { _ in
            openRequests.decrement()
        }
        request.success(1)
        #expect(openRequests.count == 0)
    }

    @Test(.hangGuard()) func leavingAWait() async {
        let asked = Atomic<Bool>(false)
        let shared = Promise<Int, any Error>()
        let reader = Task {
            try await shared.future.get(onTaskCancellation: .leave)
        }
        // the reader throws CancellationError;
        // the work is asked if nobody else waits
        reader.cancel()
        // Whether the task was cancelled before or after it started waiting, it leaves, alone: asked.
        shared.onCancellationRequested { asked.store(true, ordering: .relaxed) }
        await #expect(throws: CancellationError.self) { try await reader.value }
        let wasAsked = asked.load(ordering: .relaxed)
        #expect(wasAsked)
        shared.trySuccess(0)
    }
}

/// A counter of requests in flight.
private final class OpenRequests: Sendable {
    private let value: Atomic<Int>
    init(_ count: Int) { value = Atomic(count) }
    func decrement() { value.subtract(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
