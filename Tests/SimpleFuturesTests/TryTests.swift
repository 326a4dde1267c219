import SimpleFutures
import Testing

@Suite("SimpleFutures: Try")
struct TryTests {
    @Test func createsAndReads() {
        let value = Try(1)
        let failure = Try<Int>(TestError.failed)
        let computed = Try<Int> { throw TestError.failed }
        #expect(value.value == 1 && value.isSuccess())
        #expect(failure.error as? TestError == .failed && failure.isFailure())
        #expect(computed.isFailure())
        #expect(failure.toOptional() == nil)
        #expect(failure.getOrElse(2) == 2)
        #expect((failure ?? 3) == 3)
        #expect(failure.orElse(value).value == 1)
    }

    @Test func recoversAndFilters() {
        let failure = Try<Int>(TestError.failed)
        #expect(failure.recover { _ in 4 }.value == 4)
        #expect(failure.recoverWith { _ in Try(5) }.value == 5)
        #expect(Try(1).filter { $0 > 1 }.error as? FuturesError == .noSuchElement)
        let seen = Counter()
        Try(1).forEach { _ in seen.increment() }
        #expect(seen.value == 1)
    }

    @Test func theStandardMapAndFlatMapStayUnambiguous() {
        let result: Result<Int, any Error> = .success(1)
        #expect(result.map { $0 + 1 }.value == 2)
        #expect(result.flatMap { .success($0 * 3) }.value == 3)
        #expect(result.flatMap { value in Try { try Self.parse(value) } }.value == "1")
    }

    static func parse(_ value: Int) throws -> String { "\(value)" }
}
