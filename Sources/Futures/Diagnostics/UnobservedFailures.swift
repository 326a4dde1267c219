import Synchronization

/// What happens when a failed future is deallocated without anyone having looked at its failure.
///
/// Set it for the process with ``FuturesDiagnostics/unobservedFailures``.
public enum UnobservedFailurePolicy: Sendable, CaseIterable {
    /// Nothing is checked or reported.
    case off
    /// Each such future is reported once, as ``FuturesDiagnostic/unobservedFailure(type:error:file:line:trace:)``,
    /// through ``FuturesDiagnostics`` (standard error by default).
    case report
    /// Reported as with ``report``, then the program stops with `assertionFailure` when the library is
    /// built for debugging (`-Onone`); in optimised builds this is the same as ``report``. A dropped
    /// promise's ``FuturesError/brokenPromise`` failure is not an unobserved failure (its drop is reported
    /// as ``FuturesDiagnostic/promiseDropped(type:file:line:)``), so it does not stop the program.
    case trapInDebug
}

extension UnobservedFailurePolicy {
    /// The policy as the byte the process-wide setting stores.
    fileprivate var code: UInt8 {
        switch self {
        case .off: 0
        case .report: 1
        case .trapInDebug: 2
        }
    }

    /// The policy a stored byte stands for.
    fileprivate init(code: UInt8) {
        self = Self.allCases.first { $0.code == code } ?? .off
    }
}

extension FuturesDiagnostics {
    private static let unobservedPolicy = Atomic<UInt8>(UnobservedFailurePolicy.report.code)

    /// What to do with a failed future deallocated while nobody looked at its failure — the futures
    /// equivalent of an unhandled promise rejection. ``UnobservedFailurePolicy/report`` by default (as
    /// JavaScript runtimes warn about unhandled rejections): such a failure is usually a bug, and the
    /// report is one line through ``FuturesDiagnostics``' handler. Set ``UnobservedFailurePolicy/off`` to
    /// silence it, or ``UnobservedFailurePolicy/trapInDebug`` to stop at the first one while developing.
    ///
    /// A future counts as *observed* once anything took an interest in its result: a callback
    /// (`onComplete`, `onFailure`, `onSuccess`, …, even one removed later), a waiter (`get()`,
    /// `forced()`), a derived future (`map`, `recover`, `zip`, `sequence`, a ``ConcurrencyLimiter``
    /// item, a face's continuation, …), or a read of ``Future/result``, ``Future/value`` or
    /// ``Future/error``. Only a future that **failed** and was never observed is reported, exactly once,
    /// from its deallocation (on the thread that dropped the last reference; a task-local handler of
    /// ``withHandler(_:operation:)`` applies when that thread runs inside it). A failure that flows into a
    /// derived future is reported only for the derived future nobody observed, never for the chain.
    ///
    /// ```swift
    /// // e.g. at app start, in debug builds
    /// FuturesDiagnostics.unobservedFailures = .report
    /// // fails later: reported, with where its promise was created
    /// _ = api.deleteAccount()
    /// ```
    ///
    /// A failure that a cancellation caused is never reported: a future that failed with
    /// ``FuturesError/cancelled`` or `CancellationError` (also inside ``TimeoutError/failure(_:)`` or
    /// ``CombinatorError/external(_:)``) ended because someone asked — a
    /// ``Future/requestCancellation()`` that travelled to the work, a `timeout` that gave up on it, a
    /// cancelled token or task (a `BFTask` of the `Bolts` module too). Nor is a failure with ``FuturesError/brokenPromise`` (also
    /// inside those errors): a dropped promise caused it, and the drop was reported already, once, as
    /// ``FuturesDiagnostic/promiseDropped(type:file:line:)`` — the cause and its consequence in one
    /// report, for the promise's future and every future derived from it. Nor is a failure with
    /// ``FuturesError/shutDown``: a drain ended the work at shutdown and listed it in its report and log.
    /// An ``InvalidationToken``'s
    /// ``InvalidationToken/future`` is a signal, not a result: it is never reported either, nor is any
    /// future that failed with ``CombinatorError/invalidationTokenInvalidated`` (a future derived from that
    /// signal, BrightFutures' spelling of it): the app invalidated the token on purpose.
    ///
    /// Cost: the check is two flags of the future read in `deinit` when it completed with a failure;
    /// successful futures pay nothing. In debug builds of the library (`-Onone`) and while the policy is
    /// not ``UnobservedFailurePolicy/off``, a ``Promise`` (or ``Future/init(file:line:resolver:)``) that
    /// fails its future also records where it was created (one side-table entry per failed future,
    /// removed when it is deallocated), so the report can say where it came from; optimised builds report
    /// without a location and never take that table's lock.
    public static var unobservedFailures: UnobservedFailurePolicy {
        get { UnobservedFailurePolicy(code: unobservedPolicy.load(ordering: .relaxed)) }
        set { unobservedPolicy.store(newValue.code, ordering: .relaxed) }
    }

    /// Records where the promise of `future`, which just failed, was created (in the future's
    /// `FutureExtras` entry): only in debug builds of the library and while the policy is on, so
    /// optimised builds never take the extras table's lock.
    @usableFromInline
    @inline(never)
    static func recordFailureOrigin<T, E>(_ future: Future<T, E>, site: CallSite) {
        // `#if DEBUG` (set by SwiftPM for debug builds) rather than `_isDebugAssertConfiguration()`, whose
        // constant `false` makes optimised builds warn that the rest never runs.
        #if DEBUG
            guard unobservedFailures != .off else { return }
            FutureExtras.update(future) { $0.origin = site }
        #endif
    }
}

extension Future {
    /// Exempts this future from unobserved-failure reports (a signal of the library that nobody has to
    /// handle, such as ``InvalidationToken/future``, or a stand-in whose source reports its own failure).
    package func markObserved() {
        lock.withLock { observed = true }
    }

    /// The deallocation of a failed future: drops its recorded origin and reports it if nobody observed it.
    /// Kept out of `deinit` so that successful futures pay nothing for it.
    @usableFromInline
    @inline(never)
    func failedFutureDeinit() {
        let extras = flag(Flags.hasExtras) ? FutureExtras.take(self) : nil
        setFlag(Flags.hasExtras, false)  // taken: `deinit` must not take it again
        let origin = extras?.origin
        let policy = FuturesDiagnostics.unobservedFailures
        guard !observed, policy != .off, let error = failureForDeinit(), !isExemptFromUnobservedReport(error) else {
            return
        }
        let diagnostic = FuturesDiagnostic.unobservedFailure(
            type: "\(Future.self)",
            error: String(describing: error),
            file: origin?.file,
            line: origin?.line,
            trace: (extras?.trace as? TraceNode)?.trace()
        )
        FuturesDiagnostics.report(diagnostic)
        if policy == .trapInDebug {
            assertionFailure(diagnostic.description)
        }
    }
}

/// An error that carries another one (``TimeoutError/failure(_:)``, ``CombinatorError/external(_:)``):
/// a cancellation error inside it is still a cancellation.
protocol CarriesFailure {
    /// The error carried, if this is the case that carries one.
    var carriedFailure: (any Error)? { get }
    /// Whether this is the failure of an ``InvalidationToken`` that was invalidated
    /// (``CombinatorError/invalidationTokenInvalidated``): a deliberate act, like a cancellation.
    var isInvalidation: Bool { get }
}

extension CarriesFailure {
    var isInvalidation: Bool { false }
}

extension TimeoutError: CarriesFailure {
    var carriedFailure: (any Error)? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension CombinatorError: CarriesFailure {
    var carriedFailure: (any Error)? {
        if case .external(let error) = self { error } else { nil }
    }

    var isInvalidation: Bool {
        if case .invalidationTokenInvalidated = self { true } else { false }
    }
}

/// Whether a failure with `error`, unobserved, goes unreported, also when `error` is carried inside another
/// error: a cancellation (``FuturesError/cancelled``, `CancellationError`) was asked for, not something
/// to handle; a ``FuturesError/brokenPromise`` was reported at its cause, the dropped promise
/// (``FuturesDiagnostic/promiseDropped(type:file:line:)``), so one drop makes one report; a
/// ``FuturesError/shutDown`` was reported by the drain that ended the work, which lists each one; a
/// ``CombinatorError/invalidationTokenInvalidated`` was asked for by whoever invalidated the token.
func isExemptFromUnobservedReport(_ error: any Error) -> Bool {
    var current: any Error = error
    while true {
        if isCancellationError(current) { return true }
        if let error = current as? FuturesError, error == .brokenPromise || error == .shutDown { return true }
        guard let carrier = current as? any CarriesFailure else { return false }
        if carrier.isInvalidation { return true }
        guard let carried = carrier.carriedFailure else { return false }
        current = carried
    }
}
