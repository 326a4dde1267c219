import Bolts
import Dispatch
import Foundation
import Testing

@testable import Futures

/// One way a face or a combinator makes an output depend on a source, seen from the outside: build the
/// output from the source, then request cancellation of the output.
struct GDependent: Sendable, CustomTestStringConvertible {
    let name: String
    /// The output made from the source, as an untyped future that carries the source's value (`5` in, `5`
    /// out) and whose `requestCancellation()` is the face's own request.
    let make: @Sendable (Future<Int, any Error>) -> Future<Int, any Error>

    var testDescription: String { name }

    static let all: [GDependent] = [
        GDependent(name: "map") { $0.map(immediateExecutionContext) { $0 } },
        GDependent(name: "flatMap, the source as the inner future") { source in
            Future<Int, any Error>(value: 0).flatMap(immediateExecutionContext) { _ in source }
        },
        GDependent(name: "flatMap, the source as the outer future") { source in
            source.flatMap(immediateExecutionContext) { Future<Int, any Error>(value: $0) }
        },
        GDependent(name: "recoverWith, the source as the recovery") { source in
            Future<Int, any Error>(error: GError.failed(0)).recoverWith(context: immediateExecutionContext) { _ in
                source
            }
        },
        GDependent(name: "recover") { source in
            source.recover(context: immediateExecutionContext) { error throws -> Int in throw error }
        },
        GDependent(name: "mapError") { $0.mapError(immediateExecutionContext) { $0 } },
        GDependent(name: "andThen") { $0.andThen(context: immediateExecutionContext) { _ in } },
        GDependent(name: "filter") { source in
            source.filter { _ in true }.mapError(immediateExecutionContext) { $0 as any Error }
        },
        GDependent(name: "traverse") { source in
            [0].traverse(immediateExecutionContext) { _ in source }.map(immediateExecutionContext) { $0[0] }
        },
        GDependent(name: "traverse(maxConcurrent:)") { source in
            [0].traverse(maxConcurrent: 1, immediateExecutionContext) { _ in source }
                .map(immediateExecutionContext) { $0[0] }
        },
        GDependent(name: "fold") { source in
            [source].fold(immediateExecutionContext, zero: 0) { $0 + $1 }
        },
        GDependent(name: "retry") { source in Future.retry(1) { source } },
        GDependent(name: "ConcurrencyLimiter.submit") { source in
            ConcurrencyLimiter(maxConcurrent: 1).submit { source }
        },
        GDependent(name: "SimpleFutures map (throwing)") { source in
            source.map(context: immediateExecutionContext, mapping: { (value: Int) throws -> Int in value })
        },
        GDependent(name: "SimpleFutures map with a CancelToken") { source in
            source.map(
                context: immediateExecutionContext, cancelToken: CancelToken(),
                mapping: { (value: Int) throws -> Int in value })
        },
        GDependent(name: "SimpleFutures recoverWith (throwing)") { source in
            source.recoverWith(
                context: immediateExecutionContext, recovery: { (error: any Error) throws in throw error })
        },
        GDependent(name: "SimpleFutures init(context:dependent:)") { source in
            Future<Int, any Error>(context: immediateExecutionContext, dependent: source)
        },
        GDependent(name: "Promise.completeWith") { source in
            let promise = Promise<Int, any Error>()
            promise.completeWith(source)
            return promise.future
        },
        GDependent(name: "consumer()") { $0.consumer() },
        GDependent(name: "zip (instance)") { source in
            source.zip(Future<Int, any Error>(value: 2)).map(immediateExecutionContext) { $0.0 }
        },
        GDependent(name: "Future.zip (variadic)") { source in
            Future.zip(source, Future<Int, any Error>(value: 2), Future<Int, any Error>(value: 3))
                .map(immediateExecutionContext) { $0.0 }
        },
        GDependent(name: "sequence") { source in
            [source].sequence().map(immediateExecutionContext) { $0[0] }
        },
        GDependent(name: "firstCompleted") { source in [source].firstCompleted() },
        GDependent(name: "race, a request on the race itself") { source in
            Future.race(source, Promise<Int, any Error>().future)
        },
        GDependent(name: "timeout(after:)") { $0.timeout(after: .seconds(3600)) },
        GDependent(name: "delay(for:)") { $0.delay(for: .zero) },
        GDependent(name: "delay(for:failingWith:)") { source in
            source.delay(for: .zero, failingWith: FuturesError.cancelled)
        },
        GDependent(name: "delay(_:interval:)") { $0.delay(.global(), interval: .milliseconds(0)) },
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
        GDependent(name: "Deferred map step") { source in
            Deferred(starting: { source }).map { $0 }.run()
        },
        GDependent(name: "Deferred mapError step") { source in
            Deferred(starting: { source }).mapError { $0 }.run()
        },
        GDependent(name: "Deferred flatMap step") { source in
            Deferred<Int, any Error>.unit(0).flatMap { _ in Deferred(starting: { source }) }.run()
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
