// A plain driver for profilers (valgrind --tool=callgrind, perf): runs one workload N times, without
// the benchmark harness or its malloc interposer in the way. Futures workloads are named W1, W2s, ...;
// a few have a SwiftNIO twin (W1.NIO, ...) for instruction counts side by side. Instructions per
// operation = (count(2N) - count(N)) / N, which removes start-up costs.
//
//   swift build -c release --product FuturesProfile
//   valgrind --tool=callgrind .build/release/FuturesProfile W2s 100000
//   callgrind_annotate --inclusive=yes callgrind.out.<pid> | head -60
import Bolts
import Dispatch
import Futures
import NIOCore
import NIOEmbedded
import NaiveReference
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
let workload = arguments.count > 1 ? arguments[1] : "W1"
let count = arguments.count > 2 ? Int(arguments[2])! : 100_000
let sink = Atomic<Int>(0)

@inline(never)
func consume(_ value: Int) { sink.add(value, ordering: .relaxed) }

switch workload {
case "W1Bench": coreW1Bench(count)
// The second names are those BENCHMARKS.md quotes figures under.
case "W2sBench", "W2sCounting": coreW2sBench(count)
case "W2sMapObserverBench", "W2sMapObserver": coreW2sMapObserverBench(count)
case "W1BoltsSwiftBench": boltsSwiftW1Bench(count)
case "W2sBoltsSwiftBench", "W2sBoltsSwiftCounting": boltsSwiftW2sBench(count)
case "W1BoltsSwift":
    boltsSwiftW1(count)
case "W2sBoltsSwift":
    boltsSwiftW2s(count)
case "W2sAndThen":  // a pending promise, one andThen whose callback captures a counter, then completed
    let sum = ObserverCount()
    for _ in 0..<count {
        let promise = Promise<Int, Never>()
        _ = promise.future.andThen(immediateExecutionContext) { result in if case .success(1) = result { sum.n += 1 } }
        promise.success(1)
    }
    consume(sum.n)
case "W2sFlatMapResult":  // a pending promise, one flatMap to a Result whose closure captures a counter
    let sum = ObserverCount()
    for _ in 0..<count {
        let promise = Promise<Int, Never>()
        _ = promise.future.flatMap(immediateExecutionContext) { value -> Result<Int, Never> in
            sum.n += 1
            return .success(value)
        }
        promise.success(1)
    }
    consume(sum.n)
case "W4Counting":  // W4 with a closure that captures a counter
    let sum = ObserverCount()
    let root = Promise<Int, Never>()
    var last = root.future
    for _ in 0..<count {
        last = last.flatMap(immediateExecutionContext) { value in
            sum.n += 1
            return Future<Int, Never>(value: value + 1)
        }
    }
    root.success(0)
    consume(last.value! + sum.n)
case "W1":
    for _ in 0..<count {
        Future<Int, Never>(value: 1)
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .onComplete(immediateExecutionContext) { if case .success(let v) = $0 { consume(v) } }
    }
case "W2s":
    for _ in 0..<count {
        let promise = Promise<Int, Never>()
        promise.future
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .map(immediateExecutionContext) { $0 + 1 }
            .onComplete(immediateExecutionContext) { if case .success(let v) = $0 { consume(v) } }
        promise.success(1)
    }
case "W2":
    let context = ExecutionContext(queue: DispatchQueue(label: "W2"))
    for _ in 0..<count {
        let promise = Promise<Int, Never>()
        let last = promise.future
            .map(context) { $0 + 1 }
            .map(context) { $0 + 1 }
            .map(context) { $0 + 1 }
        promise.success(1)
        consume(last.forced().get())
    }
case "W2raw":  // the floor of W2: a raw DispatchQueue.async chain of three blocks, then a semaphore
    let queue = DispatchQueue(label: "W2raw")
    for _ in 0..<count {
        let done = DispatchSemaphore(value: 0)
        queue.async {
            queue.async {
                queue.async {
                    consume(1)
                    done.signal()
                }
            }
        }
        done.wait()
    }
case "W3a":
    let promises = (0..<count).map { _ in Promise<Int, Never>() }
    let done = DispatchSemaphore(value: 0)
    let ran = Atomic<Int>(0)
    for promise in promises {
        promise.future.onComplete(immediateExecutionContext) { _ in
            if ran.add(1, ordering: .acquiringAndReleasing).newValue == count { done.signal() }
        }
    }
    DispatchQueue.global().async { for promise in promises { promise.success(1) } }
    done.wait()
case "W3b":
    let promises = (0..<count).map { _ in Promise<Int, Never>() }
    let all = promises.map(\.future).sequence()
    for (index, promise) in promises.enumerated() { promise.success(index) }
    consume(all.forced().get().count)
case "W4":
    let root = Promise<Int, Never>()
    var last = root.future
    for _ in 0..<count {
        last = last.flatMap(immediateExecutionContext) { Future<Int, Never>(value: $0 + 1) }
    }
    root.success(0)
    consume(last.value!)
case "W5":
    var promises: [Promise<Int, Never>] = []
    promises.reserveCapacity(count)
    for index in 0..<count {
        let promise = Promise<Int, Never>()
        promise.future.onComplete(immediateExecutionContext) { _ in consume(index) }
        promises.append(promise)
    }
    for promise in promises { promise.success(1) }
case "W6":
    let promises = (0..<count).map { _ in Promise<Int, Never>() }
    let ran = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 {
            for promise in promises { promise.success(1) }
        } else {
            for promise in promises {
                promise.future.onComplete(immediateExecutionContext) { _ in ran.add(1, ordering: .relaxed) }
            }
        }
    }
    precondition(ran.load(ordering: .relaxed) == count)
case "Streams":  // one value through map + withFilter to one subscriber (SimpleFutures' spelling)
    simpleFuturesStreams(count)
case "W1Modes":  // W1's two speeds (BENCHMARKS.md, round 6): chunks of N on fresh threads, a sleep between chunks
    for _ in 0..<4 {
        var thread = pthread_t()
        pthread_create(&thread, nil, w1ModesThread, nil)
        pthread_join(thread, nil)
    }
case "Value":  // reading a settled future's value
    let settled = Future<Int, Never>(value: 1)
    for _ in 0..<count { consume(settled.value!) }
case "Error":  // reading a settled failure's error
    struct Failed: Error {}
    let settled = Future<Int, Failed>(error: Failed())
    for _ in 0..<count { consume(settled.error == nil ? 0 : 1) }
case "TaskResult":  // a succeeded BFTask made and read
    for index in 0..<count { consume(BFTask(result: index).result!) }
case "W1Task":  // W1 on the Bolts face: a succeeded task, three immediate continuations, an observer
    for _ in 0..<count {
        let first = BFTask(result: 1)
        let second = first.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
        let third = second.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
        let fourth = third.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
        fourth.continueWith(executor: .immediate) { (task: BFTask<Int>) in consume(task.result!) }
    }
case "W2sTask":  // W2s on the Bolts face: a completion source, three continuations, an observer, then set
    for _ in 0..<count {
        let source = BFTaskCompletionSource<Int>()
        let second = source.task.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
        let third = second.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
        let fourth = third.continueOnSuccessWith(executor: .immediate) { (task: BFTask<Int>) in task.result! + 1 }
        fourth.continueWith(executor: .immediate) { (task: BFTask<Int>) in consume(task.result!) }
        source.set(result: 1)
    }
case "W1Deferred":  // W1 on the Deferred face: a unit, three maps, run and observe
    for _ in 0..<count {
        Deferred<Int, Never>.unit(1).map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
            .execute { if case .success(let v) = $0 { consume(v) } }
    }
case "Recover":  // a failed future recovered and observed (immediate)
    struct Failed: Error {}
    for _ in 0..<count {
        Future<Int, Failed>(error: Failed()).recover(context: immediateExecutionContext) { _ in 1 }
            .onComplete(immediateExecutionContext) { if case .success(let v) = $0 { consume(v) } }
    }
case "Zip":  // two pending promises zipped, observed, then completed
    for _ in 0..<count {
        let first = Promise<Int, Never>()
        let second = Promise<Int, Never>()
        first.future.zip(second.future)
            .onComplete(immediateExecutionContext) { if case .success(let v) = $0 { consume(v.0 + v.1) } }
        first.success(1)
        second.success(2)
    }
case "Get":  // awaiting a settled future's value inside a task
    let settled = Future<Int, Never>(value: 1)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        for _ in 0..<count { consume(await settled.get()) }
        done.signal()
    }
    done.wait()
case "ThrowingMap":  // SimpleFutures' throwing map on a completed untyped future, observed (immediate)
    simpleFuturesThrowingMap(count)
case "W1One":
    for _ in 0..<count {
        Future<Int, Never>(value: 1)
            .map(immediateExecutionContext) { $0 + 1 }
            .onComplete(immediateExecutionContext) { if case .success(let v) = $0 { consume(v) } }
    }
case "W1OnSuccess":  // W1One observed with onSuccess (the wrapper closure of issue 10)
    for _ in 0..<count {
        Future<Int, Never>(value: 1)
            .map(immediateExecutionContext) { $0 + 1 }
            .onSuccess(immediateExecutionContext) { consume($0) }
    }
case "W2One":
    let context = ExecutionContext(queue: DispatchQueue(label: "W2One"))
    for _ in 0..<count {
        let promise = Promise<Int, Never>()
        let last = promise.future.map(context) { $0 + 1 }
        promise.success(1)
        consume(last.forced().get())
    }
case "W2Oneraw":  // the floor of W2One: one DispatchQueue.async block, then a semaphore
    let queue = DispatchQueue(label: "W2Oneraw")
    for _ in 0..<count {
        let done = DispatchSemaphore(value: 0)
        queue.async {
            consume(1)
            done.signal()
        }
        done.wait()
    }
case "W5Bare":
    var futures: [Future<Int, Never>] = []
    futures.reserveCapacity(count)
    for index in 0..<count {
        let future = Future<Int, Never>()
        future.onComplete(immediateExecutionContext) { _ in consume(index) }
        futures.append(future)
    }
case "W7":  // 8 threads register callbacks on one pending future (count callbacks in all)
    let promise = Promise<Int, Never>()
    let future = promise.future
    let ran = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
        for _ in 0..<count / 8 { future.onComplete(immediateExecutionContext) { _ in ran.add(1, ordering: .relaxed) } }
    }
    promise.success(1)
    precondition(ran.load(ordering: .relaxed) == count / 8 * 8)
// The naive reference future (one Mutex, an array of closures): its instruction counts are the floor a
// simple design sets.
case "W1.Naive":
    for _ in 0..<count {
        NaiveFuture(value: 1).map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }.onComplete { consume($0) }
    }
case "W1One.Objects":  // the allocation floor of W1One (FuturesBenchmarks' W1One.Objects)
    for _ in 0..<count {
        let root = FloorCell.make(1)
        let mapped = FloorCell.make(floorStep(root.value))
        consume(mapped.value)
    }
case "W1One.Naive":
    for _ in 0..<count {
        NaiveFuture(value: 1).map { $0 + 1 }.onComplete { consume($0) }
    }
case "W2s.Naive":
    for _ in 0..<count {
        let promise = NaiveFuture<Int>()
        promise.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }.onComplete { consume($0) }
        promise.complete(1)
    }
case "W2One.Naive":
    let queue = DispatchQueue(label: "W2One.Naive")
    for _ in 0..<count {
        let promise = NaiveFuture<Int>()
        let last = promise.map(on: queue) { $0 + 1 }
        promise.complete(1)
        consume(last.wait())
    }
case "W3b.Naive":
    let promises = (0..<count).map { _ in NaiveFuture<Int>() }
    let all = promises.naiveSequence()
    for (index, promise) in promises.enumerated() { promise.complete(index) }
    consume(all.wait().count)
case "W5.Naive":
    var promises: [NaiveFuture<Int>] = []
    promises.reserveCapacity(count)
    for index in 0..<count {
        let promise = NaiveFuture<Int>()
        promise.onComplete { _ in consume(index) }
        promises.append(promise)
    }
    for promise in promises { promise.complete(1) }
case "W6.Naive":
    let promises = (0..<count).map { _ in NaiveFuture<Int>() }
    let ran = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
        if side == 0 {
            for promise in promises { promise.complete(1) }
        } else {
            for promise in promises { promise.onComplete { _ in ran.add(1, ordering: .relaxed) } }
        }
    }
    precondition(ran.load(ordering: .relaxed) == count)
case "W1One.NIO":
    let loop = EmbeddedEventLoop()
    for _ in 0..<count {
        loop.makeSucceededFuture(1).map { $0 + 1 }.whenComplete { if case .success(let v) = $0 { consume(v) } }
    }
// SwiftNIO on an EmbeddedEventLoop, for instruction counts side by side with the Futures runs.
case "W1.NIO":
    let loop = EmbeddedEventLoop()
    for _ in 0..<count {
        loop.makeSucceededFuture(1).map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
            .whenComplete { if case .success(let v) = $0 { consume(v) } }
    }
case "W2s.NIO":
    let loop = EmbeddedEventLoop()
    for _ in 0..<count {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
            .whenComplete { if case .success(let v) = $0 { consume(v) } }
        promise.succeed(1)
    }
case "W3b.NIO":
    let loop = EmbeddedEventLoop()
    let promises = (0..<count).map { _ in loop.makePromise(of: Int.self) }
    let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
    for (index, promise) in promises.enumerated() { promise.succeed(index) }
    consume(try! all.wait().count)
case "W4.NIO":
    let loop = EmbeddedEventLoop()
    let root = loop.makePromise(of: Int.self)
    var last = root.futureResult
    for _ in 0..<count { last = last.flatMap { loop.makeSucceededFuture($0 + 1) } }
    root.succeed(0)
    consume(try! last.wait())
case "W4Completed":
    var last = Future<Int, Never>(value: 0)
    for _ in 0..<count { last = last.flatMap(immediateExecutionContext) { Future<Int, Never>(value: $0 + 1) } }
    consume(last.value!)
case "W4Completed.NIO":
    let loop = EmbeddedEventLoop()
    var last = loop.makeSucceededFuture(0)
    for _ in 0..<count { last = last.flatMap { loop.makeSucceededFuture($0 + 1) } }
    consume(try! last.wait())
default:
    fatalError("unknown workload \(workload)")
}
print("\(workload) × \(count): done (\(sink.load(ordering: .relaxed)))")

/// Nanoseconds per run of `body`, `count` runs.
@inline(never)
nonisolated func nanoseconds(_ count: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count { body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
}

@inline(never)
nonisolated func makeSettledFuture() -> Future<Int, Never> { Future(value: 1) }

/// One thread of `W1Modes`: eight chunks, each after a 20 ms sleep, printing W1, the creation and release
/// of one settled future, and SwiftNIO's W1, in ns per operation.
nonisolated func w1ModesThread(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let count = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 100_000
    let loop = EmbeddedEventLoop()
    for chunk in 0..<8 {
        if chunk > 0 { usleep(20_000) }
        let w1 = nanoseconds(count) {
            Future<Int, Never>(value: 1)
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .map(immediateExecutionContext) { $0 + 1 }
                .onComplete(immediateExecutionContext) { if case .success(let v) = $0 { consume(v) } }
        }
        let future = nanoseconds(count) { consume(ObjectIdentifier(makeSettledFuture()).hashValue & 1) }
        let nio = nanoseconds(count) {
            loop.makeSucceededFuture(1).map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
                .whenComplete { if case .success(let v) = $0 { consume(v) } }
        }
        print("W1 \(Int(w1)) ns  one future \(Int(future)) ns  NIO W1 \(Int(nio)) ns")
    }
    return nil
}

/// One heap object of a `Future<Int, Never>`'s size, for the allocation floor.
final class FloorCell {
    let value: Int
    var flags: UInt64 = 0
    var extra: UInt64 = 0

    init(_ value: Int) { self.value = value }

    /// Allocated out of line, so that the optimiser cannot keep it on the stack (as a library's future is not).
    @inline(never)
    static func make(_ value: Int) -> FloorCell { FloorCell(value) }
}

@inline(never)
func floorStep(_ value: Int) -> Int { value + 1 }
