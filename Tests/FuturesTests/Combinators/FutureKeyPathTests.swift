import Testing

@testable import Futures

private struct User: Sendable {
    var name: String
    var address: Address
}

private struct Address: Sendable {
    var city: String
}

@Suite("key-path member lookup")
struct FutureKeyPathTests {
    @Test func keyPathMemberLookupGivesAFutureOfTheProperty() {
        let user = Future<User, ComboError>(value: User(name: "Ada", address: Address(city: "London")))
        let name: Future<String, ComboError> = user.name
        #expect(name.value == "Ada")
        #expect(user.address.city.value == "London")
        #expect(user.name.count.value == 3)
    }

    @Test func keyPathMemberLookupPassesAFailureThrough() {
        let user = Future<User, ComboError>(error: .first)
        #expect(user.name.error == .first)
    }

    @Test func keyPathMemberLookupWaitsForAPendingFuture() {
        let promise = Promise<User, ComboError>()
        let city = promise.future.address.city
        #expect(!city.isCompleted)
        promise.success(User(name: "Grace", address: Address(city: "New York")))
        #expect(city.value == "New York")
    }
}
