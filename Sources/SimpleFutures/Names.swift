// A SimpleFutures framework built by CocoaPods or Carthage re-exported Foundation (and with it Dispatch)
// through its umbrella header, so application code often uses `Date`, `URL` or `DispatchQueue` with only
// `import SimpleFutures`; this module does the same (Dispatch separately: off Apple platforms Foundation
// does not re-export it).
@_exported import Dispatch
@_exported import Foundation
import Futures

// Re-exported so that a file importing only `SimpleFutures` counts as importing the module that declares
// the contexts' members: Swift 6 allows `QueueContext.main` in a public function's default argument only
// then. Only this one name is re-exported, so the core's `Future` and `Promise` stay out of such a file.
@_exported import struct Futures.ExecutionContext

// The names a SimpleFutures user spells that the core already has with the same members: given here as
// typealiases, so that a file importing only `SimpleFutures` sees them.

/// Where callbacks and combinator closures run: the core's `Futures.ExecutionContext` value.
///
/// SimpleFutures' `ExecutionContext` was a protocol; here a context is a value. Build a custom one with
/// `ExecutionContext { task in … }` (see <doc:MigratingFromSimpleFutures>).
public typealias ExecutionContext = Futures.ExecutionContext

/// SimpleFutures' context that runs tasks asynchronously on a `Queue`: `QueueContext.main`,
/// `QueueContext.global`, `QueueContext(queue:)` and `QueueContext.futuresDefault` (the context an
/// omitted `context:` argument means).
public typealias QueueContext = Futures.ExecutionContext

/// A wrapper around a Dispatch queue: `sync`, `async` and `delay(_:request:)`.
public typealias Queue = Futures.Queue

/// A handle for unsubscribing callbacks and combinators: pass it as `cancelToken:`, then call
/// `cancel(token)` on the future or stream they were registered on.
public typealias CancelToken = Futures.CancelToken

/// The errors the library raises itself: `.noSuchElement` (a `withFilter` rejected the value) and
/// `.invalidValue` (a `(nil, nil)` completion handler).
public typealias FuturesError = Futures.FuturesError

/// A context that runs every task synchronously on the calling thread (through the core's trampoline,
/// so a long chain of immediate callbacks uses bounded stack). Handy in tests.
///
/// The core has the same function; in a file that imports both modules the core's is chosen (it
/// returns the same context), so the call is not ambiguous.
@inlinable
@_disfavoredOverload
public func ImmediateContext() -> ExecutionContext {
    immediateExecutionContext
}
