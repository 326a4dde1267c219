import BrightFutures
import Dispatch
import Foundation
import Testing

// The examples of the BrightFutures README (seeds 000 and 003), as its users write them (`import
// BrightFutures`), with the outputs the
// README states. Deviations forced by Swift 6 are marked: a `var` mutated from a `@Sendable` closure
// becomes a `Counter`, and `2.seconds` (a gist's extension) becomes `.milliseconds(20)`.

private enum ReadmeError: Error, Equatable {
    case RequestFailed, TimeServiceError
}

private func fibonacci(_ n: Int) -> Int {
    var (a, b) = (0, 1)
    for _ in 0..<n { (a, b) = (b, a + b) }
    return a
}

private func fibonacciFuture(_ n: Int) -> Future<Int, Never> {
    Future(value: fibonacci(n))
}

/// Stands in for a `UICollectionViewCell` (README, "Invalidation tokens"); the image view is a recorder.
private final class MyCell {
    var token = InvalidationToken()
    let imageView = Recorder<String>()

    func prepareForReuse() {
        token.invalidate()
        token = InvalidationToken()
    }

    func setModel(model image: Future<String, Never>) {
        image.onSuccess(token.validContext) { [imageView] image in
            imageView.append(image)
        }
    }
}

private func serverTime() -> Date? {
    Date(timeIntervalSince1970: 1_000_000)
}

private struct User: Sendable {
    let name: String
}

private enum LoginError: Error, Equatable {
    case wrongPassword
    case noPosts
}

private enum Users {
    static func logIn(_ username: String, _ password: String) -> Future<User, LoginError> {
        Future { complete in
            DispatchQueue.global().async {
                complete(password == "secret" ? .success(User(name: username)) : .failure(.wrongPassword))
            }
        }
    }
}

private enum Posts {
    static func fetchPosts(_ user: User) -> Future<[String], LoginError> {
        Future(value: ["first post by \(user.name)"])
    }
}

/// Runs `body` with the immediate context as the default, so the README's chains run synchronously.
private func immediately(_ body: () -> Void) {
    DefaultExecutionContext.withDefault(Futures.immediateExecutionContext, operation: body)
}

@Suite("BrightFutures README examples")
struct BrightFuturesReadmeTests {
    @Test func asyncGetAwaitsTheFutureInAnAsyncContext() async throws {
        let userFuture = Users.logIn("thomas", "secret")
        let user = try await userFuture.get()
        let posts = try await Posts.fetchPosts(user).get()
        #expect(posts == ["first post by thomas"])
    }

    @Test func flatMapChainsLogInAndFetchPosts() async {
        let seen = Promise<String, Never>()
        Users.logIn("thomas", "secret").flatMap { user in
            Posts.fetchPosts(user)
        }.onSuccess { posts in
            seen.success("posts: \(posts)")
        }.onFailure { error in
            seen.success("error: \(error)")
        }
        #expect(await seen.future.get() == "posts: [\"first post by thomas\"]")
    }

    @Test func flatMapChainSkipsToOnFailureWhenLogInFails() async {
        let seen = Promise<String, Never>()
        Users.logIn("thomas", "wrong").flatMap { user in
            Posts.fetchPosts(user)
        }.onSuccess { posts in
            seen.success("posts: \(posts)")
        }.onFailure { error in
            seen.success("error: \(error)")
        }
        #expect(await seen.future.get() == "error: wrongPassword")
    }

    @Test func providingAFutureWithTheCompletionScope() async {
        func asyncCalculation() -> Future<String, Never> {
            return Future { complete in
                DispatchQueue.global().async {
                    // do a complicated task and then hand the result to the promise:
                    complete(.success("forty-two"))
                }
            }
        }
        #expect(await asyncCalculation().get() == "forty-two")
    }

    @Test func andThenOrdersSideEffectsSoTheAnswerIs42Not48() {
        let answer = Counter(10)  // README: `var answer = 10`
        immediately {
            let _ = Future<Int, Never>(value: 4).andThen { result in
                switch result {
                case .success(let val):
                    answer.increment(by: answer.value * (val - 1))  // answer *= val
                case .failure(_):
                    break
                }
            }.andThen { result in
                if case .success(_) = result {
                    answer.increment(by: 2)  // answer += 2
                }
            }
        }
        #expect(answer.value == 42)
    }

    @Test func mapTurnsFibonacciOfTenIntoLarge() {
        let seen = Recorder<Bool>()
        immediately {
            fibonacciFuture(10).map { number -> String in
                if number > 5 {
                    return "large"
                }
                return "small"
            }.map { sizeString in
                sizeString == "large"
            }.onSuccess { numberIsLarge in
                // numberIsLarge is true
                seen.append(numberIsLarge)
            }
        }
        #expect(seen.values == [true])
    }

    @Test func flatMapGivesFibonacciOfFibonacciOfTen() {
        let seen = Recorder<Int>()
        immediately {
            fibonacciFuture(10).flatMap { number in
                fibonacciFuture(number)
            }.onSuccess { largeNumber in
                // largeNumber is 139583862445
                seen.append(largeNumber)
            }
        }
        #expect(seen.values == [139_583_862_445])
    }

    @Test func zipPairsOneAndTwo() {
        let seen = Recorder<String>()
        immediately {
            let f = Future<Int, Never>(value: 1)
            let f1 = Future<Int, Never>(value: 2)

            f.zip(f1).onSuccess { a, b in
                // a is 1, b is 2
                seen.append("a is \(a), b is \(b)")
            }
        }
        #expect(seen.values == ["a is 1, b is 2"])
    }

    @Test func filterFailsForThreeAndKeepsSwift() {
        let seen = Recorder<String>()
        immediately {
            Future<Int, Never>(value: 3)
                .filter { $0 > 5 }
                .onComplete { result in
                    // failed with error NoSuchElementError
                    if case .failure(.noSuchElement) = result { seen.append("failed with NoSuchElement") }
                }

            Future<String, Never>(value: "Swift")
                .filter { $0.hasPrefix("Sw") }
                .onComplete { result in
                    // succeeded with value "Swift"
                    if case .success(let value) = result { seen.append("succeeded with value \(value)") }
                }
        }
        #expect(seen.values == ["failed with NoSuchElement", "succeeded with value Swift"])
    }

    @Test func recoverProvidesAnOfflineDefault() {
        let seen = Recorder<Int>()
        immediately {
            // imagine a request failed
            Future<Int, ReadmeError>(error: .RequestFailed)
                .recover { _ in  // provide an offline default
                    return 5
                }.onSuccess { value in
                    // value is 5 if the request failed or 10 if the request succeeded
                    seen.append(value)
                }
            Future<Int, ReadmeError>(value: 10)
                .recover { _ in 5 }
                .onSuccess { value in seen.append(value) }
        }
        #expect(seen.values == [5, 10])
    }

    @Test func recoverWithProvidesAFutureToRecoverWith() {
        let seen = Recorder<Int>()
        immediately {
            Future<Int, ReadmeError>(error: .RequestFailed)
                .recoverWith { _ in fibonacciFuture(5) }
                .onSuccess { value in seen.append(value) }
        }
        #expect(seen.values == [5])
    }

    @Test func foldSumsTheFirstTenFibonacciNumbersTo143() async {
        let fibonacciSequence = (1...10).map { fibonacciFuture($0) }

        // 1+1+2+3+5+8+13+21+34+55
        let seen = Promise<Int, Never>()
        fibonacciSequence.fold(0, f: { $0 + $1 }).onSuccess { sum in
            // sum is 143
            seen.success(sum)
        }
        #expect(await seen.future.get() == 143)
    }

    @Test func sequenceTurnsTheListOfFuturesIntoAFutureOfTheList() {
        let seen = Recorder<[Int]>()
        immediately {
            let fibonacciSequence = (1...10).map { fibonacciFuture($0) }
            fibonacciSequence.sequence().onSuccess { fibNumbers in
                // fibNumbers is an array of Ints: [1, 1, 2, 3, etc.]
                seen.append(fibNumbers)
            }
        }
        #expect(seen.values == [[1, 1, 2, 3, 5, 8, 13, 21, 34, 55]])
    }

    @Test func traverseMapsAndCollectsInOneGo() async {
        let seen = Promise<[Int], Never>()
        (1...10).traverse {
            i in fibonacciFuture(i)
        }.onSuccess { fibNumbers in
            // fibNumbers is an array of Ints: [1, 1, 2, 3, etc.]
            seen.success(fibNumbers)
        }
        #expect(await seen.future.get() == [1, 1, 2, 3, 5, 8, 13, 21, 34, 55])
    }

    @Test func delayCompletesAfterTheAdditionalInterval() async {
        let start = DispatchTime.now()
        let done = Promise<Int, Never>()
        _ = Future<Int, Never>(value: 3).delay(.milliseconds(20)).andThen { result in
            // execute after two additional seconds (here: 20 milliseconds)
            if case .success(let value) = result { done.success(value) }
        }
        #expect(await done.future.get() == 3)
        #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds >= 20_000_000)
    }

    @Test func customContextRunsTheCallbackOnTheMainQueue() async {
        let f = Future<Int, Never> { complete in
            DispatchQueue.global().async {
                complete(.success(fibonacci(10)))
            }
        }

        // On Linux the main queue may be drained by a worker thread (after `dispatchMain()`), so the
        // test checks for the main *queue*, not the main thread.
        let mainQueueKey = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: "main queue")
        let seen = Promise<String, Never>()
        f.onComplete(DispatchQueue.main.context) { value in
            // update the UI, we're on the main thread
            seen.success("\(value) on \(DispatchQueue.getSpecific(key: mainQueueKey) ?? "another queue")")
        }
        #expect(await seen.future.get() == "success(55) on main queue")
    }

    @Test func asyncValueWrapsAnExpression() async {
        let seen = Promise<Int, Never>()
        DispatchQueue.global().asyncValue {
            fibonacci(50)
        }.onSuccess { num in
            // value is 12586269025
            seen.success(num)
        }
        #expect(await seen.future.get() == 12_586_269_025)
    }

    @Test func asyncResultWrapsAnExpressionThatCanFail() async {
        let f = DispatchQueue.global().asyncResult { () -> Result<Date, ReadmeError> in
            if let now = serverTime() {
                return .success(now)
            }

            return .failure(ReadmeError.TimeServiceError)
        }

        let seen = Promise<Date, Never>()
        f.onSuccess { value in
            // value will the NSDate from the server
            seen.success(value)
        }
        #expect(await seen.future.get() == Date(timeIntervalSince1970: 1_000_000))
    }

    @Test func invalidationTokenKeepsAReusedCellFromShowingTheOldImage() {
        immediately {
            let cell = MyCell()
            let oldImage = Promise<String, Never>()
            let newImage = Promise<String, Never>()
            cell.setModel(model: oldImage.future)
            cell.prepareForReuse()
            cell.setModel(model: newImage.future)
            newImage.success("new model's image")
            oldImage.success("old model's image")  // arrives late: ignored
            #expect(cell.imageView.values == ["new model's image"])
        }
    }
}
