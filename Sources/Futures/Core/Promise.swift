import Synchronization

/// The write end of a ``Future``: complete it once with a value or an error.
///
/// ```swift
/// let promise = Promise<Int, Never>()
/// promise.future.onSuccess { print($0) }
/// promise.success(42)
/// ```
///
/// ## Misuse, and what happens
/// - **Completing twice** with ``complete(_:file:line:)``, ``success(_:file:line:)``,
///   ``failure(_:file:line:)``, or a `completeWith` whose future completes after the promise was
///   completed: the first result stays, the second is ignored and reported as
///   ``FuturesDiagnostic/promiseCompletedTwice(file:line:)`` through ``FuturesDiagnostics``, naming the
///   line of the second call. Use the `try` forms (``tryComplete(_:)``) where racing completers are
///   expected: they return `false`.
/// - **Dropping a promise** without completing it: reported once, as
///   ``FuturesDiagnostic/promiseDropped(type:file:line:)``, when the promise is deallocated. If the
///   failure type can hold a ``FuturesError`` (`any Error`, or `FuturesError` itself) the future then
///   fails with ``FuturesError/brokenPromise``, so no waiter hangs; that failure is the drop's
///   consequence and is not reported again as an unobserved failure, whether or not anyone looks at it.
///   Other failure types cannot express it: their future stays pending (the report says so) and its
///   callbacks are released unrun.
///
/// Combinators never create promises: they write their futures directly, so this small object exists
/// only where you ask for one.
public final class Promise<T: Sendable, E: Error>: Sendable {
    /// The future this promise completes.
    public let future: Future<T, E>
    /// The file the promise was created in, for the dropped-promise report (12 bytes).
    @usableFromInline let siteFile: CallSite.File
    /// The line the promise was created at, for the dropped-promise report.
    @usableFromInline let siteLine: UInt32

    /// Creates a promise with a pending future. `file` and `line` name it in diagnostics.
    @inlinable
    public convenience init(file: StaticString = #fileID, line: UInt = #line) {
        self.init(producer: "Promise", file: file, line: line)
    }

    /// A promise that is the write end of a face's task (Bolts' `BFTaskCompletionSource`), created at
    /// `file`:`line`: its future is traced and listed as pending as made by `producer`, the face's name
    /// for its write end.
    @inlinable
    package init(producer: StaticString, file: StaticString, line: UInt) {
        self.future = Future()
        self.siteFile = CallSite.File(file)
        self.siteLine = UInt32(truncatingIfNeeded: line)
        future.recordProduced(producer, file: file, line: line)
    }

    deinit {
        // A completed future is seen without its lock: its flags are an atomic whose completing store
        // releases (see *Settled futures* in Future+Storage.swift). Every completer that went through
        // this promise held a reference to it, and the runtime orders their releases before this deinit,
        // so such a completion is always seen here; the locked check only covers a load that raced with
        // a completion made some other way. The promise itself is never written after `init`, so the
        // thread that completes it and the one that reads `future` share no written cache line in it.
        // `future` is read without a retain: this promise holds it until its fields are destroyed, after
        // this body (a retain and a release are two atomic read-modify-writes).
        if Unmanaged.passUnretained(future)._withUnsafeGuaranteedRef({ $0.isKnownCompleted }) { return }
        guard !future.isCompleted else { return }
        reportDropped()
    }

    /// Where the promise was created.
    @usableFromInline
    var site: CallSite {
        CallSite(file: siteFile, line: siteLine)
    }

    /// The dropped-promise path, kept out of `deinit`: its metadata look-ups (`Result<T, E>`,
    /// `Optional`, the cast to `E`) would otherwise run on every deallocation, completed or not.
    @inline(never)
    private func reportDropped() {
        future.writeEndDropped(type: "\(Promise.self)", site: site)
    }

    /// Completes the future with `result`. A second completion is ignored and reported.
    @inlinable
    public func complete(_ result: Result<T, E>, file: StaticString = #fileID, line: UInt = #line) {
        if tryComplete(result) { return }
        FuturesDiagnostics.report(.promiseCompletedTwice(file: "\(file)", line: line))
    }

    /// Completes the future with `value`. A second completion is ignored and reported.
    @inlinable
    public func success(_ value: T, file: StaticString = #fileID, line: UInt = #line) {
        complete(.success(value), file: file, line: line)
    }

    /// Completes the future with `error`. A second completion is ignored and reported.
    @inlinable
    public func failure(_ error: E, file: StaticString = #fileID, line: UInt = #line) {
        complete(.failure(error), file: file, line: line)
    }

    /// Completes the future with `result` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func tryComplete(_ result: Result<T, E>) -> Bool {
        future.completeAsWriteEnd(result, site: site)
    }

    /// Completes the future with `value` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySuccess(_ value: T) -> Bool {
        future.complete(.success(value))
    }

    /// Completes the future with `error` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func tryFailure(_ error: E) -> Bool {
        tryComplete(.failure(error))
    }

    /// Completes the future with `other`'s result once `other` completes.
    ///
    /// The promise stays alive until then, so dropping it right after this call is fine. If this
    /// promise was completed meanwhile, the later result is ignored and reported as
    /// ``FuturesDiagnostic/promiseCompletedTwice(file:line:)`` naming this call's `file` and `line`. A
    /// cancellation request on this promise's future is forwarded to `other`, as one of its consumers.
    ///
    /// - Parameters:
    ///   - other: The future whose result completes this promise.
    ///   - file: The caller's file, for the report of a second completion (leave the default).
    ///   - line: The caller's line, for the report of a second completion (leave the default).
    public func completeWith(_ other: Future<T, E>, file: StaticString = #fileID, line: UInt = #line) {
        let site = CallSite(file: file, line: line)
        future.depend(on: other) { [self] result in
            if !self.tryComplete(result) {
                FuturesDiagnostics.report(.promiseCompletedTwice(file: site.file, line: site.line))
            }
        }
    }

    /// Completes the future with the value of `other`, a future that cannot fail, once it completes
    /// (BrightFutures code wrote `promise.completeWith(other.promoteError())`; both still work).
    ///
    /// As ``completeWith(_:file:line:)-(Future<T,E>,_,_)``: the promise stays alive until then, a later
    /// result is ignored and reported with this call's `file` and `line`, and a cancellation request on
    /// this promise's future is forwarded to `other`.
    @_disfavoredOverload
    public func completeWith(_ other: Future<T, Never>, file: StaticString = #fileID, line: UInt = #line) {
        completeWith(other.promoteError(), file: file, line: line)
    }
}

extension Promise where E == any Error {
    /// Completes this untyped promise with `other`'s result, whatever `other`'s error type, once it
    /// completes; the error is passed on as it is.
    ///
    /// As ``completeWith(_:file:line:)-(Future<T,E>,_,_)``: the promise stays alive until then, a later
    /// result is ignored and reported with this call's `file` and `line`, and a cancellation request on
    /// this promise's future is forwarded to `other`.
    @_disfavoredOverload
    public func completeWith<F: Error>(_ other: Future<T, F>, file: StaticString = #fileID, line: UInt = #line) {
        completeWith(other.mapError(immediateExecutionContext) { $0 as any Error }, file: file, line: line)
    }
}

/// A call site (`#fileID`, `#line`) in two words instead of a `StaticString` and a `UInt` (four), so that
/// objects that keep one for a diagnostic stay small.
@usableFromInline
struct CallSite: @unchecked Sendable {
    // `@unchecked Sendable`: `start` points to the immutable, never-freed storage of a string literal
    // (a `StaticString` with a pointer representation), which any thread may read.
    @usableFromInline let fileName: File
    @usableFromInline let storedLine: UInt32

    /// A `#fileID` literal in 12 bytes.
    @usableFromInline
    struct File: @unchecked Sendable {
        // `@unchecked Sendable`: as for `CallSite`.
        @usableFromInline let start: UnsafeRawPointer?
        /// The literal's length in UTF-8 code units, or the scalar's value when `start` is `nil` (a
        /// `StaticString` made from a single Unicode scalar has no pointer).
        @usableFromInline let count: UInt32

        @inlinable
        init(_ file: StaticString) {
            if file.hasPointerRepresentation {
                start = UnsafeRawPointer(file.utf8Start)
                count = UInt32(truncatingIfNeeded: file.utf8CodeUnitCount)
            } else {
                start = nil
                count = file.unicodeScalar.value
            }
        }
    }

    @inlinable
    init(file: StaticString, line: UInt) {
        self.init(file: File(file), line: UInt32(truncatingIfNeeded: line))
    }

    @inlinable
    init(file: File, line: UInt32) {
        fileName = file
        storedLine = line
    }

    /// The file name, as `#fileID` gave it.
    var file: String {
        guard let start = fileName.start else { return Unicode.Scalar(fileName.count).map { String($0) } ?? "?" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(fileName.count)), as: UTF8.self)
    }

    /// The line.
    var line: UInt { UInt(storedLine) }
}

// The write end's rules, shared by ``Promise`` and a face's own write end over its own cell (BoltsSwift's
// `TaskCompletionSource`, which completes its `Task` directly): one mechanism for completing and for being
// dropped.
extension Future {
    /// Completes this future as its write end does (``Promise/tryComplete(_:)``): returns whether this call
    /// completed it; a failure records `site` as its origin.
    @inlinable
    final func completeAsWriteEnd(_ result: Result<T, E>, site: CallSite) -> Bool {
        guard complete(result) else { return false }
        if case .failure = result { FuturesDiagnostics.recordFailureOrigin(self, site: site) }
        return true
    }

    /// ``completeAsWriteEnd(_:site:)`` for a face's own write end in another module of this package: the
    /// write end was created at `file`:`line`.
    @inlinable
    package final func completeAsWriteEnd(_ result: Result<T, E>, file: StaticString, line: UInt) -> Bool {
        completeAsWriteEnd(result, site: CallSite(file: file, line: line))
    }

    /// What happens when this future's write end, created at `site`, is dropped while the future is
    /// pending: the drop is reported as ``FuturesDiagnostic/promiseDropped(type:file:line:)`` (naming the
    /// write end's `type`), and the future fails with ``FuturesError/brokenPromise`` when `E` can hold it;
    /// otherwise its callbacks are released, since they can never run.
    @usableFromInline
    final func writeEndDropped(type: String, site: CallSite) {
        FuturesDiagnostics.report(.promiseDropped(type: type, file: site.file, line: site.line))
        if let error = FuturesError.brokenPromise as? E {
            complete(.failure(error))
            FuturesDiagnostics.recordFailureOrigin(self, site: site)
        } else {
            // Nothing can complete the future any more: its callbacks will never run, so release them
            // (and what they captured) now instead of keeping them as long as someone holds the future.
            abandon()
        }
    }

    /// ``writeEndDropped(type:site:)`` for a face's own write end in another module of this package (call
    /// it from the write end's `deinit`): does nothing when this future has completed; else the write end,
    /// named `type`, was created at `file`:`line` and is reported. `type` is evaluated only then.
    @inlinable
    package final func writeEndDropped(type: @autoclosure () -> String, file: StaticString, line: UInt) {
        if isKnownCompleted || isCompleted { return }
        writeEndDropped(type: type(), site: CallSite(file: file, line: line))
    }
}
