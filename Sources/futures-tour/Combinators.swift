import Dispatch
import Futures

/// Chapter: combinators beyond the seeds.
func tourCombinators() async {
    print("\n== Combinators: zip, race, firstCompleted, traverse(maxConcurrent:) ==")

    let zipped = Future.zip(
        Future<Int, Never>(value: 1), Future<String, Never>(value: "two"), Future<Bool, Never>(value: true))
    print("zip of three:", await zipped.get())

    // race: the first success wins; the losers are asked to cancel.
    let slow = Promise<String, MirrorError>()
    slow.future.onCancellationRequested { slow.failure(.cancelled) }
    let broken = Future<String, MirrorError>(error: .notFound)
    let fast = Future<String, MirrorError>(value: "fast mirror").delay(for: .milliseconds(2))
    print("race winner:", await Future.race(slow.future, broken, fast).settledResult().readable)
    print("race: the slow mirror was asked to cancel and stopped with:", await slow.future.settledResult().readable)

    // firstCompleted(cancellingOthers:): the first result of any kind.
    let backup = Promise<Int, MirrorError>()
    backup.future.onCancellationRequested { backup.failure(.cancelled) }
    let first = [backup.future, Future(error: .notFound)].firstCompleted(cancellingOthers: true)
    print("firstCompleted:", await first.settledResult().readable)
    print(
        "firstCompleted: the backup request was cancelled and stopped with:",
        await backup.future.settledResult().readable)

    // traverse(maxConcurrent:): 20 jobs, never more than 3 at once.
    let running = SharedTally()
    let peak = SharedTally()
    let squares = (1...20).traverse(maxConcurrent: 3) { n in
        let now = running.next()
        while peak.value < now { _ = peak.next() }
        let promise = Promise<Int, Never>()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) {
            running.previous()
            promise.success(n * n)
        }
        return promise.future
    }
    let values = await squares.get()
    print(
        "traverse(maxConcurrent: 3): \(values.count) squares, sum \(values.reduce(0, +)), at most 3 at once:",
        peak.value <= 3)
}
