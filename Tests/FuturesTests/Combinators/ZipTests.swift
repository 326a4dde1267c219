import Testing

@testable import Futures

@Suite("Future.zip of any arity", .hangGuard())
struct ZipTests {
    @Test func zipsValuesOfDifferentTypesInArgumentOrder() {
        let number = Promise<Int, Flaky>()
        let text = Promise<String, Flaky>()
        let flag = Promise<Bool, Flaky>()
        let zipped = Future.zip(number.future, text.future, flag.future)
        flag.success(true)
        text.success("two")
        #expect(!zipped.isCompleted)
        number.success(1)
        let value = zipped.value
        #expect(value?.0 == 1 && value?.1 == "two" && value?.2 == true)
    }

    @Test func zipsOneAndSixFutures() {
        let single = Future.zip(Future<Int, Never>(value: 9))
        #expect(single.value == 9)
        let six = Future.zip(
            Future<Int, Never>(value: 1), Future<String, Never>(value: "b"), Future<Double, Never>(value: 3.5),
            Future<[Int], Never>(value: [4]), Future<Character, Never>(value: "e"), Future<Int8, Never>(value: 6))
        let value = six.value
        #expect(value?.0 == 1 && value?.1 == "b" && value?.2 == 3.5)
        #expect(value?.3 == [4] && value?.4 == "e" && value?.5 == 6)
    }

    @Test func failsWithTheFirstFailureToArrive() {
        let first = Promise<Int, Flaky>()
        let second = Promise<String, Flaky>()
        let zipped = Future.zip(first.future, second.future)
        second.failure(.fatal(2))
        #expect(zipped.error == .fatal(2))
        first.failure(.fatal(1))
        #expect(zipped.error == .fatal(2))
    }

    @Test func alreadyFailedInputsFailWithTheFirstInArgumentOrder() {
        let zipped = Future.zip(
            Future<Int, Flaky>(value: 0), Future<Int, Flaky>(error: .fatal(1)), Future<Int, Flaky>(error: .fatal(2)))
        #expect(zipped.error == .fatal(1))
    }

    @Test func aCancellationRequestReachesEveryInput() {
        let cancelled = Counter()
        let first = Promise<Int, Never>()
        let second = Promise<Int, Never>()
        first.future.onCancellationRequested { cancelled.increment() }
        second.future.onCancellationRequested { cancelled.increment() }
        Future.zip(first.future, second.future).requestCancellation()
        #expect(cancelled.value == 2)
        first.success(1)
        second.success(2)
    }

    @Test func coexistsWithTheStandardLibrarysZip() {
        let pairs = Array(Swift.zip([1, 2], ["a", "b"]))
        #expect(pairs.count == 2)
        let unqualified = Array(zip([1, 2], [3, 4])).map { $0 + $1 }
        #expect(unqualified == [4, 6])
    }

    @Test func doesNotKeepItsInputsAlive() {
        weak var weakInput: Future<Int, Never>?
        let zipped: Future<(Int, Int), Never>
        do {
            let input = Future<Int, Never>()
            weakInput = input
            zipped = Future.zip(input, Future<Int, Never>(value: 1))
        }
        #expect(weakInput == nil)
        #expect(!zipped.isCompleted)
    }
}
