import Foundation
import SimpleFutures
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Every example of SimpleFutures' README, as a SimpleFutures user writes it (this file imports only
// `SimpleFutures`). Where the README's code did not compile with SimpleFutures itself (a closure that
// ignores its parameter without `_ in`, `==error`, a stream passed as `future:`), the smallest fix is
// used and said. The declarations the README only names (`asyncRequest`, `apply`, …) are given bodies.

enum AppError: Error {
    case invalidValue
}

/// The README's `AsyncRequester`: an API with a completion handler.
final class AsyncRequester: @unchecked Sendable {
    // `@unchecked Sendable`: written once by `request` before the test calls `completion` on the same
    // thread; nothing else touches it.
    var completion: ((Int?, Swift.Error?) -> Void)?

    func request(completion: @escaping (Int?, Swift.Error?) -> Void) {
        self.completion = completion
    }
}

extension AsyncRequester {
    func futureRequest() -> Future<Int?> {
        return future(method: request)
    }
}

/// The README's `TestStreamRequester`: an API that calls back repeatedly.
final class TestStreamRequester: @unchecked Sendable {
    // `@unchecked Sendable`: as `AsyncRequester`.
    var completion: ((Int?, Swift.Error?) -> Void)?

    func request(completion: @escaping (Int?, Swift.Error?) -> Void) {
        self.completion = completion
    }
}

extension TestStreamRequester {
    func streamRequest() -> FutureStream<Int?> {
        return futureStream(method: request)
    }
}

extension URLSession {
    class func get(with url: URL) -> Future<(Data?, URLResponse?)> {
        let promise = Promise<(Data?, URLResponse?)>()
        let session = URLSession.shared
        let task = session.dataTask(with: url) { (data, response, error) in
            if let error = error {
                promise.failure(error)
            } else {
                promise.success((data, response))
            }
        }
        task.resume()
        return promise.future
    }
}

/// The README's completion-handler API: calls back at once with `value` (and no error).
func asyncRequest(_ completion: @escaping (Int, Swift.Error?) -> Void) {
    completion(readmeValue.withLock { $0 }, nil)
}

let readmeValue = Mutex(-5)

func asyncMapping(_ value: Int) -> Future<String> { Future(value: "mapped \(value)") }
func recovery(_ error: Swift.Error) -> Int { 0 }
func futureRecovery(_ error: Swift.Error) -> Future<Int> { Future(value: 0) }
func mapping(_ error: Swift.Error) -> AppError { .invalidValue }
func asyncTask(_ value: Int) -> Future<Int> { future(value) }
func streamMapping(_ value: Int) -> FutureStream<String> { FutureStream(value: "stream \(value)", capacity: 10) }
func futureMapping(_ value: Int) -> Future<String> { Future(value: "future \(value)") }
func streamRecovery(_ error: Swift.Error) -> FutureStream<Int> { FutureStream(value: 0, capacity: 10) }
func anotherAsyncRequest() -> Future<String> { Future(value: "another") }
func asyncStream() -> FutureStream<String> { FutureStream(value: "stream", capacity: 10) }
let applied = Counter()
func apply(_ value: Int) { applied.increment() }

@Suite("README: Queue and contexts")
struct ReadmeQueueTests {
    @Test func queue() async {
        let value = 42
        // create a queue with .background pos
        let queue = Queue("us.gnos.myqueue")
        // run block synchronously on queue
        queue.sync {
            // do something
        }
        // return a value from a synchronous task
        let result = queue.sync {
            // do something
            return value
        }
        #expect(result == 42)
        // run block asynchronously on queue
        queue.async {
            // do something
        }
        // run block asynchronously at specified number of seconds from now
        queue.delay(10.0) {
            // do something
        }
        let done = Future<Bool>()
        queue.delay(0.01) { done.success(true) }
        #expect(await awaitValue(of: done) == true)
    }

    @Test func contexts() async {
        let queue = Queue("us.gnos.contexts")
        // main and global queue contexts
        let contexts = [QueueContext.main, QueueContext.global, QueueContext(queue: queue), ImmediateContext()]
        for context in contexts {
            #expect(await awaitValue(of: future(context: context) { 1 }) == 1)
        }
    }
}

@Suite("README: Future")
struct ReadmeFutureTests {
    @Test func creating() async {
        // create an uncompleted future
        let pending = Future<Int>()
        // create a future with result of type T
        let completed = Future(value: 1)
        // create a Future with an error result
        let failed = Future<Int>(error: AppError.invalidValue)
        #expect(!pending.completed)
        #expect(await awaitValue(of: completed) == 1)
        #expect(await awaitError(of: failed) as? AppError == .invalidValue)
        #expect(await awaitValue(of: future(6 * 7)) == 42)
    }

    @Test func futureMethod() async {
        let requester = AsyncRequester()
        let request = requester.futureRequest()
        requester.completion?(1, nil)
        #expect(await awaitValue(of: request) == 1)
    }

    @Test func promiseAndURLSession() async {
        // Port 9 (discard) on the loopback interface refuses the connection: the request fails.
        let requestFuture = URLSession.get(with: URL(string: "http://127.0.0.1:9")!)
        let failed = Future<Bool>()
        requestFuture.onSuccess { (data, response) in
            guard let response = response, let data = data else {
                return
            }
            // process data
            _ = (response, data)
        }
        requestFuture.onFailure { error in
            // handle error
            failed.success(true)
        }
        #expect(await awaitValue(of: failed) == true)
    }

    @Test func completeWith() async {
        let anotherFuture = Future<Int>()
        let dependentFuture = future(method: asyncRequest)
        anotherFuture.completeWith(future: dependentFuture)
        #expect(await awaitValue(of: anotherFuture) == -5)
    }

    @Test func map() async {
        let mappedFuture = future(method: asyncRequest).map { value -> String in
            guard value < 0 else {
                throw AppError.invalidValue
            }
            return "\(value)"
        }
        #expect(await awaitValue(of: mappedFuture) == "-5")
    }

    @Test func flatMap() async {
        let mappedFuture = future(method: asyncRequest).flatMap { value -> Future<String> in
            guard value < 0 else {
                throw AppError.invalidValue
            }
            return asyncMapping(value)
        }
        #expect(await awaitValue(of: mappedFuture) == "mapped -5")
    }

    @Test func withFilter() async {
        let filteredFuture = future(method: asyncRequest).withFilter { value in
            value > 0
        }
        #expect(await awaitError(of: filteredFuture) as? FuturesError == .noSuchElement)
    }

    @Test func forEachAndAndThen() async {
        // The README binds `forEach`'s `Void` result to a constant; that compiles with a warning only.
        future(method: asyncRequest).forEach { value in
            apply(value)
        }
        let andThenFuture = future(method: asyncRequest).andThen { value in
            apply(value)
        }
        #expect(await awaitValue(of: andThenFuture) == -5)
    }

    @Test func recoverAndRecoverWith() async {
        let recoveryFuture = future(method: asyncRequest).recover { error in
            guard let appError = error as? AppError else {
                throw error
            }
            return recovery(appError)
        }
        #expect(await awaitValue(of: recoveryFuture) == -5)
        let recoveredWith = future(method: asyncRequest).recoverWith { error -> Future<Int> in
            guard let appError = error as? AppError else {
                throw error
            }
            return futureRecovery(appError)
        }
        #expect(await awaitValue(of: recoveredWith) == -5)
    }

    @Test func mapError() async {
        let mapErrorFuture = Future<Int>(error: TestError.failed).mapError { error in
            guard let appError = error as? AppError else {
                return mapping(error)
            }
            return appError
        }
        #expect(await awaitError(of: mapErrorFuture) as? AppError == .invalidValue)
    }

    @Test func foldAndSequence() async {
        let futures = [asyncTask(1), asyncTask(1), asyncTask(1)]
        let foldFuture = futures.fold(initial: 0) { $0 + $1 }
        let sequenceFuture = futures.sequence()
        #expect(await awaitValue(of: foldFuture) == 3)
        #expect(await awaitValue(of: sequenceFuture) == [1, 1, 1])
    }

    @Test func cancel() async {
        // The README's closure `{ anotherAsyncRequest() }` ignores its parameter, which needs `_ in`.
        let request = Promise<Int>()
        let cancelToken = CancelToken()
        let cancelFuture = request.future
        let mappedFuture = cancelFuture.flatMap(cancelToken: cancelToken) { _ in
            anotherAsyncRequest()
        }
        mappedFuture.onSuccess(cancelToken: cancelToken) { value in
            // process data
            Issue.record("cancelled chain ran with \(value)")
        }
        mappedFuture.onFailure(cancelToken: cancelToken) { error in
            // process data
            Issue.record("cancelled chain failed with \(error)")
        }
        cancelFuture.cancel(cancelToken)
        request.success(1)
        #expect(!mappedFuture.completed)
    }
}

@Suite("README: FutureStream")
struct ReadmeStreamTests {
    @Test func creating() async {
        // create an empty FutureStream with capacity
        let empty = FutureStream<Int>(capacity: 10)
        // create a FutureStream with an Int result and capacity of 10
        let withValue = FutureStream(value: 1, capacity: 10)
        // create a FutureStream with an error result and capacity of 10
        let withError = FutureStream<Int>(error: AppError.invalidValue, capacity: 10)
        #expect(empty.count == 0)
        #expect(await results(of: withValue, count: 1).map(\.value) == [1])
        #expect(await results(of: withError, count: 1).map { $0.error as? AppError } == [.invalidValue])
        let fromTask = futureStream(context: ImmediateContext()) { 7 }
        #expect(await results(of: fromTask, count: 1).map(\.value) == [7])
    }

    @Test func futureStreamMethod() async {
        let requester = TestStreamRequester()
        let stream = requester.streamRequest()
        requester.completion?(1, nil)
        requester.completion?(2, nil)
        #expect(await results(of: stream, count: 2).map(\.value) == [1, 2])
    }

    @Test func streamPromise() async {
        let accelerometer = Accelerometer()
        let accelrometerDataFuture = accelerometer.startAcceleromterUpdates()
        let seen = Counter()
        accelrometerDataFuture.onSuccess { data in
            // process data
            seen.increment()
        }
        accelrometerDataFuture.onFailure { error in
            // handle error
        }
        accelerometer.motionManager.deliver(1.5)
        #expect(await results(of: accelrometerDataFuture, count: 1).map(\.value) == [1.5])
    }

    @Test func completeWith() async {
        let anotherFutureStream = FutureStream<Int>()
        // Complete FutureStream with dependent Future
        let dependentFuture = future(method: asyncRequest)
        anotherFutureStream.completeWith(future: dependentFuture)
        // Complete FutureStream with dependent FutureStream (the README passes it as `future:`)
        let dependentStream = futureStream(method: asyncRequest)
        anotherFutureStream.completeWith(stream: dependentStream)
        #expect(await results(of: anotherFutureStream, count: 2).map(\.value) == [-5, -5])
    }

    @Test func combinators() async {
        let mappedStream = futureStream(method: asyncRequest).map { value -> String in
            guard value < 0 else {
                throw AppError.invalidValue
            }
            return "\(value)"
        }
        let flatMappedStream = futureStream(method: asyncRequest).flatMap { value -> FutureStream<String> in
            guard value < 0 else {
                throw AppError.invalidValue
            }
            return streamMapping(value)
        }
        let flatMappedFuture = futureStream(method: asyncRequest).flatMap { value -> Future<String> in
            guard value < 0 else {
                throw AppError.invalidValue
            }
            return futureMapping(value)
        }
        let filteredStream = futureStream(method: asyncRequest).withFilter { value in
            value > 0
        }
        futureStream(method: asyncRequest).forEach { value in
            apply(value)
        }
        let andThenStream = futureStream(method: asyncRequest).andThen { value in
            apply(value)
        }
        #expect(await results(of: mappedStream, count: 1).map(\.value) == ["-5"])
        #expect(await results(of: flatMappedStream, count: 1).map(\.value) == ["stream -5"])
        #expect(await results(of: flatMappedFuture, count: 1).map(\.value) == ["future -5"])
        #expect(await results(of: filteredStream, count: 1).map { $0.error as? FuturesError } == [.noSuchElement])
        #expect(await results(of: andThenStream, count: 1).map(\.value) == [-5])
    }

    @Test func recoveries() async {
        let failing = FutureStream<Int>(error: TestError.failed, capacity: 10)
        let recoveryStream = failing.recover { error in
            guard let appError = error as? AppError else {
                return recovery(error)
            }
            return recovery(appError)
        }
        let recoveredWithStream = failing.recoverWith { error -> FutureStream<Int> in
            guard let appError = error as? AppError else {
                return streamRecovery(error)
            }
            return streamRecovery(appError)
        }
        let recoveredWithFuture = failing.recoverWith { error -> Future<Int> in
            futureRecovery(error)
        }
        let fromFuture = Future<Int>(error: TestError.failed).recoverWith { error -> FutureStream<Int> in
            streamRecovery(error)
        }
        let mapErrorStream = failing.mapError { error in
            guard let appError = error as? AppError else {
                return mapping(error)
            }
            return appError
        }
        #expect(await results(of: recoveryStream, count: 1).map(\.value) == [0])
        #expect(await results(of: recoveredWithStream, count: 1).map(\.value) == [0])
        #expect(await results(of: recoveredWithFuture, count: 1).map(\.value) == [0])
        #expect(await results(of: fromFuture, count: 1).map(\.value) == [0])
        #expect(await results(of: mapErrorStream, count: 1).map { $0.error as? AppError } == [.invalidValue])
    }

    @Test func cancel() async {
        // The README's closure `{ asyncStream() }` ignores its parameter, which needs `_ in`; its last
        // line cancels on `cancelFuture`, meaning `cancelStream`.
        let source = StreamPromise<Int>()
        let cancelToken = CancelToken()
        let cancelStream = source.stream
        let mappedStream = cancelStream.flatMap(cancelToken: cancelToken) { _ in
            asyncStream()
        }
        mappedStream.onSuccess(cancelToken: cancelToken) { value in
            // process data
            Issue.record("cancelled stream delivered \(value)")
        }
        mappedStream.onFailure(cancelToken: cancelToken) { error in
            // process data
        }
        cancelStream.cancel(cancelToken)
        source.success(1)
        #expect(mappedStream.count == 0)
    }
}

/// A stand-in for CoreMotion's `CMMotionManager` (not on Linux) with the README's calls.
final class MotionManager: @unchecked Sendable {
    // `@unchecked Sendable`: `handler` is written by `startAccelerometerUpdates` before the test calls
    // `deliver` on the same thread.
    var accelerometerUpdateInterval: TimeInterval = 0
    var isAccelerometerActive: Bool { handler != nil }
    var isAccelerometerAvailable: Bool { true }
    private var handler: ((Double?, Error?) -> Void)?

    func startAccelerometerUpdates(to queue: OperationQueue, withHandler handler: @escaping (Double?, Error?) -> Void) {
        self.handler = handler
    }

    func stopAccelerometerUpdates() { handler = nil }

    func deliver(_ acceleration: Double) { handler?(acceleration, nil) }
}

/// The README's `Accelerometer`, on the stand-in (`CMAcceleration` is a `Double` here).
final class Accelerometer: @unchecked Sendable {
    // `@unchecked Sendable`: used from one test's thread only.
    var motionManager = MotionManager()
    let queue = OperationQueue.main
    let accelerationDataPromise = StreamPromise<Double>(capacity: 10)

    var updatePeriod: TimeInterval {
        get {
            return motionManager.accelerometerUpdateInterval
        }
        set {
            motionManager.accelerometerUpdateInterval = newValue
        }
    }

    var accelerometerActive: Bool {
        return motionManager.isAccelerometerActive
    }

    var accelerometerAvailable: Bool {
        return motionManager.isAccelerometerAvailable
    }

    init() {
        motionManager.accelerometerUpdateInterval = 1.0
    }

    func startAcceleromterUpdates() -> FutureStream<Double> {
        motionManager.startAccelerometerUpdates(to: queue) { [unowned self] (data: Double?, error: Error?) in
            if let error = error {
                self.accelerationDataPromise.failure(error)
            } else {
                if let data = data {
                    self.accelerationDataPromise.success(data)
                }
            }
        }
        return accelerationDataPromise.stream
    }

    func stopAccelerometerUpdates() {
        motionManager.stopAccelerometerUpdates()
    }
}
