import BoltsSwift
import Foundation

@testable import Futures

/// A weak reference that a `@Sendable` closure can fill in (tests check that objects are freed).
final class WeakSlot<Object: AnyObject & Sendable>: Sendable {
    private struct Reference: Sendable {
        weak var object: Object?
    }

    private let box = LockedBox(Reference())

    var object: Object? {
        get { box.value.object }
        set { box.value = Reference(object: newValue) }
    }

    var isFreed: Bool { object == nil }
}

/// Collects values from many threads.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = LockedBox<[Value]>([])
    func append(_ value: Value) { storage.withValue { $0.append(value) } }
    var values: [Value] { storage.value }
}

/// Something a closure captures, to watch it being released.
final class Captured: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// An error of the tests.
struct TestError: Error, Equatable {
    var code = 0
}

/// Collects the library's diagnostics reported while `body` runs (in this task tree).
func diagnostics(during body: () -> Void) -> [FuturesDiagnostic] {
    let seen = Recorder<FuturesDiagnostic>()
    FuturesDiagnostics.withHandler({ seen.append($0) }, operation: body)
    return seen.values
}
