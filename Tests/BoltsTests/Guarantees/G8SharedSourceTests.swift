import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

/// A producer: a promise whose cancellation handler counts the requests that reach it (and does not complete
/// it, so the tests can observe that a request alone never completes a future).
struct GProducer: Sendable {
    let promise = Promise<Int, any Error>()
    let asked = GCounter()

    init(completed: Bool = false) {
        let asked = self.asked
        promise.onCancellationRequested { asked.increment() }
        if completed { promise.success(1) }
    }

    var future: Future<Int, any Error> { promise.future }

    /// Completes the promise so that nothing is reported as dropped.
    func finish() { promise.trySuccess(0) }
}

/// One way a face or a combinator makes an output depend on a source, seen from the outside: build the
/// output from the source, then request cancellation of the output.
struct GDependent: Sendable, CustomTestStringConvertible {
    let name: String
    /// The output made from the source, as an untyped future that carries the source's value (`5` in, `5`
    /// out) and whose `requestCancellation()` is the face's own request.
    let make: @Sendable (Future<Int, any Error>) -> Future<Int, any Error>

    var testDescription: String { name }

    static let all: [GDependent] = [
        GDependent(name: "BFTask(future) of a typed future") { source in
            BFTask(source.mapError(immediateExecutionContext) { _ in GError.failed(0) }).future
        },
        GDependent(name: "Future(task)") { source in Future(BFTask(source)) },
        GDependent(name: "BFTask continuation") { source in
            BFTask(source).continueWith(executor: .immediate) { task in try task.future.result!.get() }.future
        },
        GDependent(name: "BFTask(forCompletionOfAllTasksWithResults:)") { source in
            BFTask(forCompletionOfAllTasksWithResults: [BFTask(source)]).future.map(immediateExecutionContext) { $0[0] }
        },
        GDependent(name: "BFTask(forCompletionOfAllTasks:)") { source in
            BFTask(forCompletionOfAllTasks: [BFTask(source)]).future.map(immediateExecutionContext) { 5 }
        },
        GDependent(name: "BFTask(forCompletionOfAnyTask:)") { source in
            BFTask(forCompletionOfAnyTask: [BFTask(source)]).future
        },
        GDependent(name: "BFTask continueWithTask, the source as the returned task") { source in
            BFTask(result: 0).continueWithTask(executor: .immediate) { _ in BFTask(source) }.future
        },
        GDependent(name: "BFTask continueOnSuccessWith") { source in
            BFTask(source).continueOnSuccessWith(executor: .immediate) { task in task.result! }.future
        },
        GDependent(name: "BFTask continueOnErrorWith") { source in
            BFTask(source).continueOnErrorWith(executor: .immediate) { _ in 0 }.future
        },
        GDependent(name: "BFTask(forCompletionOfAllTasksWithResults:) of mixed types") { source in
            BFTask<[any Sendable]>(forCompletionOfAllTasksWithResults: [BFTask(source)]).future
                .map(immediateExecutionContext) { $0[0] as! Int }
        },
        GDependent(name: "BFTask(forCompletionOfAnyTask:) of mixed types") { source in
            BFTask<any Sendable>(forCompletionOfAnyTask: [BFTask(source)]).future
                .map(immediateExecutionContext) { $0 as! Int }
        },
        GDependent(name: "BFTask<Void>(forCompletionOfAnyTask:)") { source in
            BFTask<Void>(forCompletionOfAnyTask: [BFTask(source)]).future.map(immediateExecutionContext) { 5 }
        },
    ]
}

extension Guarantees {
    /// G8 for every way one future depends on another: a shared source with a consumer that never asks is
    /// not asked, a source whose every consumer asks is, and a completed source gives the same outcome.
    @Suite("G8 A shared source is asked only when every consumer asked, through every face")
    struct G8SharedSourceTests {
        @Test(arguments: GDependent.all)
        func aSharedSourceWithAWaitingConsumerIsNotAsked(_ dependent: GDependent) async throws {
            let producer = GProducer()
            let waiter = producer.future.map(immediateExecutionContext) { $0 }  // a consumer that never asks
            let output = dependent.make(producer.future)
            output.requestCancellation()
            #expect(producer.asked.value == 0)
            producer.promise.success(5)
            #expect(waiter.value == 5)  // the plain waiter gets its value
            _ = output
        }

        @Test(arguments: GDependent.all)
        func aSourceWhoseEveryConsumerAsksIsAsked(_ dependent: GDependent) async throws {
            let producer = GProducer()
            let output = dependent.make(producer.future)
            let mine = producer.future.consumer()
            output.requestCancellation()
            #expect(producer.asked.value == 0)  // `mine` still waits
            mine.requestCancellation()
            #expect(producer.asked.value == 1)
            producer.finish()
        }

        @Test(.hangGuard(), arguments: GDependent.all)
        func aCompletedSourceGivesTheSameOutcome(_ dependent: GDependent) async throws {
            let producer = GProducer()
            producer.promise.success(5)
            let waiter = producer.future.map(immediateExecutionContext) { $0 }
            let output = dependent.make(producer.future)
            output.requestCancellation()
            #expect(producer.asked.value == 0)
            #expect(waiter.value == 5)
            // The request reached nothing upstream; a step that stops its own wait on a request (a
            // delay) fails with `cancelled`, every other output carries the value.
            switch await outcome(of: output) {
            case .success(let value): #expect(value == 5)
            case .failure(let error): #expect(dependent.name.hasPrefix("delay(for:"), "\(error)")
            }
        }

        /// A pending source: the same request sequence on the slow path gives the same value.
        @Test(.hangGuard(), arguments: GDependent.all)
        func aPendingSourceCarriesItsValueThroughTheOutput(_ dependent: GDependent) async throws {
            let producer = GProducer()
            let output = dependent.make(producer.future)
            producer.promise.success(5)
            #expect(try await outcome(of: output).get() == 5)
        }
    }
}

/// The outcome of `future`, once it completes.
private func outcome(of future: Future<Int, any Error>) async -> Result<Int, any Error> {
    do { return .success(try await future.get()) } catch { return .failure(error) }
}
