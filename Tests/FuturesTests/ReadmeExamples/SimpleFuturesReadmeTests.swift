import Dispatch
import Foundation
import Testing

@testable import Futures

// Every example of the SimpleFutures README (seed 004), in Swift 6 form. SimpleFutures' `Future<T>` is
// `Future<T, any Error>` here; closures that may run on another thread are `@Sendable`.

private enum AppError: Error, Equatable {
    case invalidValue
    case mapped
}

/// `func asyncRequest(_ completion: @escaping (Int, Swift.Error?) -> Void)` from the README.
private func asyncRequest(_ completion: @escaping @Sendable (Int, (any Error)?) -> Void) {
    completion(-5, nil)
}

private func failingRequest(_ completion: @escaping @Sendable (Int, (any Error)?) -> Void) {
    completion(0, FuturesError.timedOut)
}

private func asyncMapping(_ value: Int) -> Future<String, any Error> { Future(value: "mapped \(value)") }
private func apply(_ value: Int, into recorder: Recorder<Int>) { recorder.append(value) }
private func recovery(_ error: any Error) -> Int { 0 }
private func futureRecovery(_ error: any Error) -> Future<Int, any Error> { Future(value: 1) }
private func asyncTask(_ value: Int) -> Future<Int, any Error> { Future(value: value) }
private func streamMapping(_ value: Int) -> FutureStream<String> {
    FutureStream(value: "stream \(value)", capacity: 10)
}
private func streamRecovery(_ error: any Error) -> FutureStream<Int> { FutureStream(value: 2, capacity: 10) }

/// The README's `AsyncRequester`.
private final class ReadmeRequester: Sendable {
    func request(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) { completion(7, nil) }
}

extension ReadmeRequester {
    func futureRequest() -> Future<Int?, any Error> {
        future(method: request)
    }
}

/// The README's `TestStreamRequester`.
private final class TestStreamRequester: Sendable {
    func request(completion: @escaping @Sendable (Int?, (any Error)?) -> Void) {
        completion(1, nil)
        completion(2, nil)
    }
}

extension TestStreamRequester {
    func streamRequest() -> FutureStream<Int?> {
        futureStream(method: request)
    }
}

/// Stands in for `URLSession.shared.dataTask(with:)` (no network in tests).
private final class FakeSession: Sendable {
    let data: Data?
    let error: (any Error)?
    init(data: Data?, error: (any Error)?) {
        self.data = data
        self.error = error
    }
    func dataTask(with url: URL, completion: @escaping @Sendable (Data?, Int?, (any Error)?) -> Void) {
        DispatchQueue.global().async { [self] in completion(data, 200, error) }
    }

    /// The README's `URLSession.get(with:)`, written through a `Promise`.
    func get(with url: URL) -> Future<(Data?, Int?), any Error> {
        let promise = Promise<(Data?, Int?), any Error>()
        dataTask(with: url) { data, response, error in
            if let error {
                promise.failure(error)
            } else {
                promise.success((data, response))
            }
        }
        return promise.future
    }
}

/// The README's `Accelerometer`, with a fake motion manager instead of CoreMotion.
private final class Accelerometer: Sendable {
    let accelerationDataPromise = StreamPromise<Double>(capacity: 10)

    func startAccelerometerUpdates(readings: [Double], error: (any Error)?) -> FutureStream<Double> {
        for reading in readings { accelerationDataPromise.success(reading) }
        if let error { accelerationDataPromise.failure(error) }
        return accelerationDataPromise.stream
    }
}

@Suite("SimpleFutures README examples, in Swift 6")
struct SimpleFuturesReadmeTests {
    // MARK: Queue

    @Test func queue() async {
        let queue = Queue("us.gnos.myqueue")
        let ran = Counter()
        queue.sync { ran.increment() }
        let result = queue.sync { () -> Int in
            ran.increment()
            return 42
        }
        let done = Promise<Void, Never>()
        queue.async { ran.increment() }
        queue.delay(0.01) { done.success(()) }
        await done.future.get()
        #expect(result == 42 && ran.value == 3)
    }

    // MARK: Execution contexts

    @Test func executionContexts() async {
        let contexts: [ExecutionContext] = [QueueContext.main, QueueContext.global, QueueContext(queue: Queue("q"))]
        #expect(contexts.allSatisfy { !$0.isImmediate })
        let ran = Counter()
        ImmediateContext().execute { ran.increment() }
        #expect(ran.value == 1)
        let onGlobal = Future<Int, any Error>(value: 1).map(context: QueueContext.global) { $0 + 1 }
        #expect(try! await onGlobal.get() == 2)
    }

    // MARK: Future

    @Test func creatingFutures() {
        let pending = Future<Int, any Error>()
        let value = Future<Int, any Error>(value: 1)
        let error = Future<Int, any Error>(error: AppError.invalidValue)
        #expect(!pending.isCompleted && value.value == 1 && error.error as? AppError == .invalidValue)
        let autoclosure = future(1 + 1)
        let task = future(context: ImmediateContext()) { 3 }
        #expect(autoclosure.value == 2 && task.value == 3)
    }

    @Test func futureFromACompletionBlock() {
        let requester = ReadmeRequester()
        #expect(requester.futureRequest().value == .some(7))
    }

    @Test func promiseAndURLSessionGet() async throws {
        let session = FakeSession(data: Data("hello".utf8), error: nil)
        let requestFuture = session.get(with: URL(string: "http://troystribling.com")!)
        let (data, response) = try await requestFuture.get()
        #expect(data == Data("hello".utf8) && response == 200)
        let failing = FakeSession(data: nil, error: AppError.invalidValue).get(with: URL(string: "http://x")!)
        await #expect(throws: AppError.invalidValue) { try await failing.get() }
    }

    @Test func handlingCompletion() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let seen = Recorder<String>()
            let requestFuture = Future<(Data?, Int?), any Error>(value: (Data("x".utf8), 200))
            requestFuture.onSuccess { (data, response) in
                guard let response, let data else { return }
                seen.append("\(data.count) \(response)")
            }
            requestFuture.onFailure { _ in seen.append("failure") }
            #expect(seen.values == ["1 200"])
        }
    }

    @Test func completeWith() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            // SimpleFutures: `let anotherFuture = Future<Int>(); anotherFuture.completeWith(future:)`.
            let another = Promise<Int, any Error>()
            let dependentFuture = future(method: asyncRequest)
            another.completeWith(future: dependentFuture)
            #expect(another.future.value == -5)
        }
    }

    @Test func map() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let mappedFuture = future(method: asyncRequest).map { value -> String in
                guard value < 0 else { throw AppError.invalidValue }
                return "\(value)"
            }
            #expect(mappedFuture.value == "-5")
        }
    }

    @Test func flatMap() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let mappedFuture = future(method: asyncRequest).flatMap { value -> Future<String, any Error> in
                guard value < 0 else { throw AppError.invalidValue }
                return asyncMapping(value)
            }
            #expect(mappedFuture.value == "mapped -5")
        }
    }

    @Test func withFilter() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let filteredFuture = future(method: asyncRequest).withFilter { value in value > 0 }
            #expect(filteredFuture.error as? FuturesError == .noSuchElement)
        }
    }

    @Test func forEach() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let recorder = Recorder<Int>()
            future(method: asyncRequest).forEach { value in apply(value, into: recorder) }
            #expect(recorder.values == [-5])
        }
    }

    @Test func andThen() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let recorder = Recorder<Int>()
            let andThenFuture = future(method: asyncRequest).andThen { value in apply(value, into: recorder) }
            #expect(recorder.values == [-5] && andThenFuture.value == -5)
        }
    }

    @Test func recover() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let recoveryFuture = future(method: failingRequest).recover { error in
                guard let appError = error as? AppError else { throw error }
                return recovery(appError)
            }
            #expect(recoveryFuture.error as? FuturesError == .timedOut)
        }
    }

    @Test func recoverWith() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let recoveryFuture = future(method: failingRequest).recoverWith { error -> Future<Int, any Error> in
                guard error is FuturesError else { throw error }
                return futureRecovery(error)
            }
            #expect(recoveryFuture.value == 1)
        }
    }

    @Test func mapError() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let mapErrorFuture = future(method: failingRequest).mapError { error -> any Error in
                guard let appError = error as? AppError else { return AppError.mapped }
                return appError
            }
            #expect(mapErrorFuture.error as? AppError == .mapped)
        }
    }

    @Test func fold() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let futures = [asyncTask(1), asyncTask(1), asyncTask(1)]
            let foldFuture = futures.fold(initial: 0) { $0 + $1 }
            #expect(foldFuture.value == 3)
        }
    }

    @Test func sequence() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let futures = [asyncTask(1), asyncTask(2), asyncTask(3)]
            let sequenceFuture = futures.sequence()
            #expect(sequenceFuture.value == [1, 2, 3])
        }
    }

    @Test func cancel() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let seen = Recorder<String>()
            let request = Promise<Int, any Error>()
            let cancelToken = CancelToken()
            let cancelFuture = request.future
            let mappedFuture = cancelFuture.flatMap(cancelToken: cancelToken) { _ in asyncMapping(1) }
            mappedFuture.onSuccess(cancelToken: cancelToken) { seen.append($0) }
            mappedFuture.onFailure(cancelToken: cancelToken) { _ in seen.append("failure") }
            #expect(cancelFuture.cancel(cancelToken))
            request.success(1)
            #expect(seen.values.isEmpty)
        }
    }

    // MARK: FutureStream

    @Test func creatingStreams() {
        let empty = FutureStream<Int>(capacity: 10)
        let value = FutureStream(value: 1, capacity: 10)
        let error = FutureStream<Int>(error: AppError.invalidValue, capacity: 10)
        #expect(empty.count == 0 && value.count == 1 && error.count == 1)
        let fromTask = futureStream(context: ImmediateContext()) { 1 }
        #expect(fromTask.count == 1)
        let fromRequester = TestStreamRequester().streamRequest()
        #expect(fromRequester.count == 2)
    }

    @Test func streamPromiseAndAccelerometer() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let accelerometer = Accelerometer()
            let data = Recorder<Double>()
            let errors = Recorder<String>()
            let accelerometerDataFuture = accelerometer.startAccelerometerUpdates(
                readings: [0.1, 0.2], error: AppError.invalidValue)
            accelerometerDataFuture.onSuccess { data.append($0) }
            accelerometerDataFuture.onFailure { errors.append("\($0)") }
            #expect(data.values == [0.1, 0.2] && errors.values == ["invalidValue"])
        }
    }

    @Test func streamCompleteWith() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            // SimpleFutures: `let anotherFutureStream = FutureStream<Int>(); anotherFutureStream.completeWith(…)`.
            let anotherFutureStream = StreamPromise<Int>()
            let dependentFuture = future(method: asyncRequest)
            anotherFutureStream.completeWith(future: dependentFuture)
            let dependentStream = futureStream(method: asyncRequest)
            anotherFutureStream.completeWith(stream: dependentStream)
            #expect(anotherFutureStream.stream.count == 2)
        }
    }

    @Test func streamCombinators() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let source = { futureStream(method: asyncRequest) }
            let mappedStream = source().map { value -> String in
                guard value < 0 else { throw AppError.invalidValue }
                return "\(value)"
            }
            let toStream = source().flatMap { value -> FutureStream<String> in
                guard value < 0 else { throw AppError.invalidValue }
                return streamMapping(value)
            }
            let toFuture = source().flatMap { value -> Future<String, any Error> in
                guard value < 0 else { throw AppError.invalidValue }
                return asyncMapping(value)
            }
            let fromFuture = future(method: asyncRequest).flatMap { value -> FutureStream<String> in
                guard value < 0 else { throw AppError.invalidValue }
                return streamMapping(value)
            }
            let filteredStream = source().withFilter { value in value > 0 }
            let recorder = Recorder<Int>()
            source().forEach { value in apply(value, into: recorder) }
            let andThenStream = source().andThen { value in apply(value, into: recorder) }
            let failing = { futureStream(method: failingRequest) }
            let recoveryStream = failing().recover { error in
                guard error is FuturesError else { throw error }
                return recovery(error)
            }
            let recoverWithStream = failing().recoverWith { error -> FutureStream<Int> in
                guard error is FuturesError else { throw error }
                return streamRecovery(error)
            }
            let recoverWithFuture = failing().recoverWith { error -> Future<Int, any Error> in
                guard error is FuturesError else { throw error }
                return futureRecovery(error)
            }
            let futureRecoverWith = future(method: failingRequest).recoverWith { error -> FutureStream<Int> in
                guard error is FuturesError else { throw error }
                return streamRecovery(error)
            }
            let mapErrorStream = failing().mapError { error -> any Error in
                guard let appError = error as? AppError else { return AppError.mapped }
                return appError
            }
            let strings = Recorder<String>()
            for stream in [mappedStream, toStream, toFuture, fromFuture] {
                stream.onSuccess { strings.append($0) }
            }
            #expect(strings.values == ["-5", "stream -5", "mapped -5", "stream -5"])
            filteredStream.onFailure { strings.append("\($0)") }
            #expect(strings.values.last == "noSuchElement")
            #expect(recorder.values == [-5, -5] && andThenStream.count == 1)
            let ints = Recorder<Int>()
            for stream in [recoveryStream, recoverWithStream, recoverWithFuture, futureRecoverWith] {
                stream.onSuccess { ints.append($0) }
            }
            #expect(ints.values == [0, 2, 1, 2])
            mapErrorStream.onFailure { strings.append("\($0)") }
            #expect(strings.values.last == "mapped")
        }
    }

    @Test func streamCancel() {
        DefaultExecutionContext.withDefault(immediateExecutionContext) {
            let promise = StreamPromise<Int>()
            let seen = Recorder<String>()
            let cancelToken = CancelToken()
            let cancelStream = promise.stream
            let mappedStream = cancelStream.flatMap(cancelToken: cancelToken) { _ in streamMapping(1) }
            mappedStream.onSuccess(cancelToken: cancelToken) { seen.append($0) }
            mappedStream.onFailure(cancelToken: cancelToken) { _ in seen.append("failure") }
            promise.success(1)
            #expect(cancelStream.cancel(cancelToken))
            promise.success(2)
            #expect(seen.values == ["stream 1"])
        }
    }
}
