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
/// - **Completing twice** with ``complete(_:file:line:)``, ``success(_:file:line:)`` or
///   ``failure(_:file:line:)``: the first result stays, the second is ignored and reported as
///   ``FuturesDiagnostic/promiseCompletedTwice(file:line:)`` through ``FuturesDiagnostics``. Use the
///   `try` forms (``tryComplete(_:)``) where racing completers are expected: they return `false`.
/// - **Dropping a promise** without completing it: reported as
///   ``FuturesDiagnostic/promiseDropped(type:file:line:)`` when the promise is deallocated. If the
///   failure type can hold a ``FuturesError`` (`any Error`, or `FuturesError` itself) the future then
///   fails with ``FuturesError/brokenPromise``, so no waiter hangs; other failure types cannot express
///   it: their future stays pending (the report says so) and its callbacks are released unrun.
///
/// Combinators never create promises: they write their futures directly, so this small object exists
/// only where you ask for one.
public final class Promise<T: Sendable, E: Error>: Sendable {
    /// The future this promise completes.
    public let future: Future<T, E>
    /// The file the promise was created in, for the dropped-promise report (12 bytes).
    @usableFromInline let siteFile: CallSite.File
    /// The line the promise was created at (the low 31 bits), and in the top bit (``completedMark``)
    /// whether a completion through this promise has found or left the future completed. That lets
    /// `deinit` skip the future's lock, which a completed promise then never takes again. Written with
    /// relaxed stores of one and the same value by whichever completers race, read in `deinit`: every
    /// completer held a reference, and the runtime orders its release before the deinit (release
    /// decrement, acquire before deallocating). The promise stays at 40 bytes with it.
    @usableFromInline let siteLine: Atomic<UInt32>

    /// The top bit of ``siteLine``: a completion through this promise saw the future completed.
    @inlinable static var completedMark: UInt32 { 0x8000_0000 }

    /// Creates a promise with a pending future. `file` and `line` name it in diagnostics.
    @inlinable
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.future = Future()
        self.siteFile = CallSite.File(file)
        self.siteLine = Atomic(UInt32(truncatingIfNeeded: line) & ~Self.completedMark)
        if FailureTracing.isOn { FailureTracing.produced(self) }
    }

    deinit {
        if siteLine.load(ordering: .relaxed) & Self.completedMark != 0 { return }
        guard !future.isCompleted else { return }
        reportDropped()
    }

    /// Where the promise was created.
    @usableFromInline
    var site: CallSite {
        CallSite(file: siteFile, line: siteLine.load(ordering: .relaxed) & ~Self.completedMark)
    }

    /// Records that the future is completed (see ``siteLine``). A plain load and, once, a plain store.
    @inlinable
    @inline(__always)
    func noteCompleted() {
        let word = siteLine.load(ordering: .relaxed)
        if word & Self.completedMark == 0 { siteLine.store(word | Self.completedMark, ordering: .relaxed) }
    }

    /// The dropped-promise path, kept out of `deinit`: its metadata look-ups (`Result<T, E>`,
    /// `Optional`, the cast to `E`) would otherwise run on every deallocation, completed or not.
    @inline(never)
    private func reportDropped() {
        FuturesDiagnostics.report(.promiseDropped(type: "\(Promise.self)", file: site.file, line: site.line))
        if let error = FuturesError.brokenPromise as? E {
            future.complete(.failure(error))
            FuturesDiagnostics.recordFailureOrigin(future, site: site)
        } else {
            // Nothing can complete the future any more: its callbacks will never run, so release them
            // (and what they captured) now instead of keeping them as long as someone holds the future.
            future.abandon()
        }
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
        let completed = future.complete(result)
        noteCompleted()
        guard completed else { return false }
        if case .failure = result { FuturesDiagnostics.recordFailureOrigin(future, site: site) }
        return true
    }

    /// Completes the future with `value` unless it is completed; returns whether this call completed it.
    @inlinable
    @discardableResult
    public func trySuccess(_ value: T) -> Bool {
        let completed = future.complete(.success(value))
        noteCompleted()
        return completed
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
    /// promise was completed meanwhile, the later result is ignored and reported. A cancellation request on
    /// this promise's future is forwarded to `other`, as one of its consumers.
    public func completeWith(_ other: Future<T, E>) {
        if FailureTracing.isLive { FailureTracing.follows(future, other) }
        if let result = other.result {
            complete(result)
        } else {
            let registration = other.whenComplete(immediateExecutionContext) { [self] result in self.complete(result) }
            if registration.hasExtras { ProgressLink.follow(other, by: future) }
            future.forwardsCancellation(to: other, after: registration)
        }
    }

    /// Completes the future with the value of `other`, a future that cannot fail, once it completes
    /// (BrightFutures code wrote `promise.completeWith(other.promoteError())`; both still work).
    ///
    /// As ``completeWith(_:)-(Future<T,E>)``: the promise stays alive until then, a later result is
    /// ignored and reported, and a cancellation request on this promise's future is forwarded to
    /// `other`.
    @_disfavoredOverload
    public func completeWith(_ other: Future<T, Never>) {
        completeWith(other.promoteError())
    }
}

extension Promise where E == any Error {
    /// Completes this untyped promise with `other`'s result, whatever `other`'s error type, once it
    /// completes; the error is passed on as it is.
    ///
    /// As ``completeWith(_:)-(Future<T,E>)``: the promise stays alive until then, a later result is
    /// ignored and reported, and a cancellation request on this promise's future is forwarded to
    /// `other`.
    @_disfavoredOverload
    public func completeWith<F: Error>(_ other: Future<T, F>) {
        completeWith(other.mapError(immediateExecutionContext) { $0 as any Error })
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
