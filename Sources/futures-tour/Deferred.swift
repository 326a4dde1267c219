import Foundation
import Futures
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Chapter: `Deferred`, the blog post's lazy `Async<T>`, and URLSession requests as futures.
func tourDeferred() async {
    print("\n== Deferred: lazy computations ==")

    // The blog's story. Nested dataTask callbacks ("callback hell") become one flat chain. The pages
    // are data: URLs, so this is a real URLSession round trip that needs no network.
    let session = URLSession(configuration: .ephemeral)
    let url = URL(string: "data:text/plain,hello")!
    let chain = session.dataDeferred(from: url).flatMap { _ in
        print("first")
        return session.dataDeferred(from: url)
    }.flatMap { _ in
        print("second")
        return session.dataDeferred(from: url)
    }
    print("chain built, nothing requested yet")
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        chain.execute { result in
            let body = (try? result.get()).map { String(decoding: $0.0, as: UTF8.self) } ?? "?"
            print("finally (body: \(body))")
            done.resume()
        }
    }

    // Cold: each execution runs the trunk again; run() gives a hot, shared future per execution.
    let executions = SharedTally()
    let roll = Deferred<Int, Never> { complete in complete(.success(executions.next())) }
        .map { $0 * 100 }
    print("executions before running:", executions.value)
    let first = roll.run()
    let second = roll.run()
    print("two runs:", await first.get(), await second.get(), "— executions:", executions.value)
    print("unit:", await Deferred<String, Never>.unit("a value, lifted").run().get())

    // A Deferred is a factory, so it can be retried: every attempt is a fresh execution.
    let attempts = SharedTally()
    let flaky = Deferred<String, MirrorError> { complete in
        complete(attempts.next() < 3 ? .failure(.offline) : .success("answered"))
    }
    let answer = await flaky.retry(5).run().settledResult()
    print("retry of a Deferred:", answer.readable, "after \(attempts.value) executions")

    // The future form of a request starts at once and can be cancelled.
    let response = await session.dataFuture(from: url).map { String(decoding: $0.0, as: UTF8.self) }
        .settledResult()
    print("dataFuture:", (try? response.get()) ?? "failed")
}

/// A counter that `@Sendable` closures can share.
final class SharedTally: Sendable {
    private let count = Atomic<Int>(0)
    /// Increments and returns the new value.
    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    /// Decrements and returns the new value.
    @discardableResult
    func previous() -> Int { count.subtract(1, ordering: .relaxed).newValue }
    var value: Int { count.load(ordering: .relaxed) }
}

extension Future {
    /// The result, awaited without throwing.
    func settledResult() async -> Result<T, E> {
        do {
            return .success(try await get())
        } catch {
            return .failure(error)
        }
    }
}
