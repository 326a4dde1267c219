/// How an output future takes its result from an input, for the failure trace (see ``FailureTrace``).
@usableFromInline
@frozen
enum DependencyLink {
    /// The output is a new step after the input (`map`, `recover`, `timeout`, …): it is traced as `step`
    /// at `file`:`line` when tracing is on, with the input's trace before it.
    case step(StaticString, file: StaticString, line: UInt)
    /// The output takes the input's result as its own (`completeWith`, the inner future of `flatMap`): a
    /// traced output continues with the input's trace.
    case follows
    /// The output gathers several inputs (`zip`, `sequence`, `race`, …): the gatherer links their
    /// progress and failure traces itself, all inputs at once.
    case gathered
}

extension Future {
    /// Makes this future (the output) depend on `input`: the one way one future waits for another.
    ///
    /// 1. Registers `body` on `context` as **one consumer** of `input` (a consumer is what G8 counts: the
    ///    input is asked to cancel only once every consumer has asked). When `input` has completed,
    ///    `body` runs now, through the trampoline (immediate context) or handed to `context`.
    /// 2. Forwards a cancellation request on this future to `input` as this consumer's ask, at most once:
    ///    through the registration itself when it can be taken back (an `InvalidationToken`'s context),
    ///    so that taking it back takes the ask back too; through `ask` when the output can also give up
    ///    on its own (a timer, an early failure), so that every path shares the one ask; else through a
    ///    handler that holds `input` weakly. Nothing is registered when `input` is completed or never
    ///    accepted cancellation (nobody would react).
    /// 3. Links progress (`input`'s progress becomes part of this future's) and the failure trace
    ///    (`link`).
    ///
    /// With `cancelToken` (SimpleFutures' `CancelToken`), the registration is handed to the token:
    /// `input.cancel(cancelToken)` takes it back (releasing `body`) and runs `onCancel`; the consumer's ask
    /// then goes through the registration, so taking it back takes the ask back too.
    ///
    /// Every future that waits for another goes through here: the combinators, the faces, the tokens, the
    /// timers' and the limiter's outputs. Nothing outside `Core/` registers on a cell another way.
    ///
    /// - Returns: What the registration saw (``Registration``).
    @inlinable
    @discardableResult
    final func depend<S: Sendable, SE: Error>(
        on input: Future<S, SE>,
        _ context: ExecutionContext = immediateExecutionContext,
        link: DependencyLink = .follows,
        asking ask: ConsumerAsk<S, SE>? = nil,
        cancelToken: CancelToken? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        _ body: consuming @escaping @Sendable (Result<S, SE>) -> Void
    ) -> Future<S, SE>.Registration {
        switch link {
        case .step(let name, let file, let line):
            if FailureTracing.isOn { FailureTracing.derived(self, from: input, name: name, file: file, line: line) }
        case .follows:
            if FailureTracing.isLive { FailureTracing.follows(self, input) }
        case .gathered:
            break
        }
        let registration: Future<S, SE>.Registration
        if let cancelToken, !cancelToken.isUnused {
            registration = input.whenCompleteCancellable(context, cancelToken: cancelToken, onCancel: onCancel, body)
        } else {
            registration = input.whenComplete(context, body)
        }
        switch link {
        case .step: linkProgressAndCancellation(to: input, after: registration, asking: ask)
        case .follows:
            if registration.hasExtras { ProgressLink.follow(input, by: self) }
            linkCancellation(to: input, after: registration, asking: ask)
        case .gathered: linkCancellation(to: input, after: registration, asking: ask)
        }
        return registration
    }

    /// ``depend(on:_:link:asking:_:)`` for another module of this package (the `SimpleFutures` face):
    /// `body` runs on `context` with `input`'s result, and this future is one consumer of `input`, whose
    /// result it takes as its own (``DependencyLink/follows``).
    @inlinable
    package final func depend<S: Sendable, SE: Error>(
        upon input: Future<S, SE>,
        _ context: ExecutionContext,
        _ body: @escaping @Sendable (Result<S, SE>) -> Void
    ) {
        depend(on: input, context, link: .follows, body)
    }

    /// ``depend(on:_:link:asking:_:)`` as a derivation step, for a face whose futures are its own subclass
    /// of `Future` (BoltsSwift's `Task`): this future, created pending, is derived from `input` exactly as
    /// ``derive(_:step:file:line:_:)`` derives a `DerivedFuture` (one consumer of `input`, cancellation
    /// and progress linked, a step in the failure trace named `step` at `file`:`line`), and `body` runs on
    /// `context` with `input`'s result to complete it. The face allocates the output itself, so a step
    /// costs one object, as a core combinator's does.
    @inlinable
    package final func derive<S: Sendable, SE: Error>(
        after input: Future<S, SE>,
        _ context: ExecutionContext,
        step: StaticString,
        file: StaticString,
        line: UInt,
        _ body: @escaping @Sendable (Result<S, SE>) -> Void
    ) {
        depend(on: input, context, link: .step(step, file: file, line: line), body)
    }

    /// Steps 2 and 3 of ``depend(on:_:link:asking:_:)``, for a registration made another way (with a
    /// `CancelToken`, or removable): `registration` is what it saw of `input`.
    @inlinable
    final func linkProgressAndCancellation<S: Sendable, SE: Error>(
        to input: Future<S, SE>,
        after registration: Future<S, SE>.Registration,
        asking ask: ConsumerAsk<S, SE>? = nil
    ) {
        if registration.hasExtras { ProgressLink.derive(from: input, to: self) }
        linkCancellation(to: input, after: registration, asking: ask)
    }

    /// Step 2 of ``depend(on:_:link:asking:_:)``: forwards a request on this future to `input` as one
    /// consumer's ask, at most once (a future runs its cancellation handlers once).
    @inlinable
    final func linkCancellation<S: Sendable, SE: Error>(
        to input: Future<S, SE>,
        after registration: Future<S, SE>.Registration,
        asking ask: ConsumerAsk<S, SE>?
    ) {
        guard registration.acceptsCancellation else { return }
        if let entry = registration.entry {
            // A registration that can be taken back: the ask goes through its entry, which the input's
            // lock knows as asked, taken back or gone (held weakly; it holds the input weakly).
            assert(ask == nil, "Futures: a shared ask serves only registrations that stay until completion")
            onCancellationRequested { [weak entry] in entry?.askToCancel() }
        } else if let ask {
            onCancellationRequested { ask.ask() }
        } else {
            onCancellationRequested { [weak input] in input?.consumerRequestsCancellation() }
        }
    }

    /// A new pending future made by the producer `step` (a timer, a queue's `async`) at `file`:`line`:
    /// traced and tracked as pending there, when tracing or tracking is on.
    @inlinable
    package static func produced(_ step: StaticString, file: StaticString, line: UInt) -> Future<T, E> {
        let future = Future<T, E>()
        future.recordProduced(step, file: file, line: line)
        return future
    }

    /// Records this new pending future as made by the producer `step` at `file`:`line`, as
    /// ``produced(_:file:line:)`` records the future it makes, for a face whose futures are its own
    /// subclass of `Future` (BoltsSwift's `Task`): traced and tracked as pending there, when tracing or
    /// tracking is on.
    @inlinable
    package final func recordProduced(_ step: StaticString, file: StaticString, line: UInt) {
        if FailureTracing.isOn { FailureTracing.produced(self, name: step, site: CallSite(file: file, line: line)) }
    }

    /// A future with `other`'s result that forwards cancellation requests to it as one of its consumers:
    /// `other` itself when it is completed (a request on a completed future does nothing, so there is
    /// nothing to forward), else a new future that follows it.
    @inlinable
    package static func following(_ other: Future<T, E>) -> Future<T, E> {
        if other.isCompleted && !FailureTracing.isLive { return other }
        let future = Future<T, E>()
        future.completeWith(other)
        return future
    }

    /// Completes this future with `other`'s result when it has one, as one of `other`'s consumers (see
    /// ``depend(on:_:link:asking:_:)``).
    ///
    /// Fast path: when `other` has completed, this future is completed with its result right here (its
    /// callbacks run through the trampoline, as `complete` runs them), with no registration; there is
    /// nothing to forward to a completed future.
    @inlinable
    package final func completeWith(_ other: Future<T, E>) {
        if let completed = other.ifCompleted({ $0 }) {
            if FailureTracing.isLive { FailureTracing.follows(self, other) }
            complete(completed)
            return
        }
        depend(on: other) { [self] result in self.complete(result) }
    }

    /// Derives a future from this one: registers `body` on `context` to complete the returned future with
    /// this future's result, as one consumer of this future (see ``depend(on:_:link:asking:_:)``).
    ///
    /// For a combinator whose work is a step written in the library that waits for the source whatever
    /// its state (`fold`, the timers, the faces' continuations); a combinator that carries its caller's
    /// closure is a ``DerivationForm`` and goes through ``derive(_:orWhenPending:_:step:file:line:)``.
    /// `step`, `file` and `line` name the combinator and its caller in a ``FailureTrace``.
    @inlinable
    package final func derive<U: Sendable, E1: Error>(
        _ context: ExecutionContext,
        step: StaticString = #function,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable (Result<T, E>, Future<U, E1>) -> Void
    ) -> Future<U, E1> {
        derive(into: DerivedFuture<U, E1, T, E>(step: body), context, step: step, file: file, line: line)
    }

    /// Derives a future from this one by the combinator `form`, with the caller's `closure`: the entry of
    /// every combinator written as a ``TransformForm`` (see ``derive(_:orWhenPending:_:step:file:line:)``).
    @inlinable
    final func derive<Form: TransformForm>(
        _ form: Form.Type,
        with closure: @escaping @Sendable (Form.Input) -> Form.Output,
        _ context: ExecutionContext,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<Form.Value, Form.Failure> where Form.Source == T, Form.SourceFailure == E {
        // `closure` is called through a non-escaping closure, as in `TransformFuture.fire`: passed as it
        // is, it was retained and released around the call.
        derive(
            { Form.outcome(of: $0, with: { closure($0) }) }, orWhenPending: TransformFuture<Form>(transform: closure),
            context,
            step: step, file: file, line: line)
    }

    /// Derives a future from this one by the combinator `form`, with the caller's `closure`: the entry of
    /// every combinator written as a ``FollowForm`` (see ``derive(_:orWhenPending:_:step:file:line:)``).
    @inlinable
    package final func derive<Form: FollowForm>(
        _ form: Form.Type,
        with closure: @escaping @Sendable (Form.Input) -> Future<Form.Value, Form.Failure>,
        _ context: ExecutionContext,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<Form.Value, Form.Failure> where Form.Source == T, Form.SourceFailure == E {
        derive(
            { Form.outcome(of: $0, with: { closure($0) }) }, orWhenPending: FollowFuture<Form>(next: closure), context,
            step: step, file: file, line: line)
    }

    /// The one place where a combinator written as a ``DerivationForm`` takes its path; both paths run the
    /// form's `outcome(of:with:)`:
    ///
    /// - On the immediate context, when this future has completed: `outcome` runs right here, through the
    ///   trampoline (``ifCompleted(_:)``), and the returned future is completed with its result (or follows
    ///   the future it gives, ``following(_:)``). No registration is needed: a completed future has no
    ///   consumers to count and nothing to forward a request to.
    /// - Otherwise: the derived future `pending` makes, which holds the caller's closure, is derived from
    ///   this one (``derive(into:_:step:file:line:)``, one consumer of it), and the form's work runs on
    ///   `context` when this future completes.
    @inlinable
    final func derive<U: Sendable, E1: Error, Derived: Future<U, E1> & DerivedStep<Result<T, E>>>(
        _ outcome: (Result<T, E>) -> DerivedOutcome<U, E1>,
        orWhenPending pending: @autoclosure () -> Derived,
        _ context: ExecutionContext,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<U, E1> {
        if context.isImmediate, let outcome = ifCompleted(outcome) {
            switch outcome {
            case .result(let result): return Future<U, E1>(result: result)
            case .follow(let next): return .following(next)
            }
        }
        return derive(into: pending(), context, step: step, file: file, line: line)
    }

    /// Derives `future`, created pending, from this one: registers on `context` its ``DerivedStep/fire(_:)``
    /// with this future's result, as one consumer of this future (see ``depend(on:_:link:asking:_:)``), and
    /// returns it. ``derive(_:step:file:line:_:)`` and ``derive(_:orWhenPending:_:step:file:line:)`` go through it.
    ///
    /// The registered callback captures `future` alone, which Swift passes as its context: no box.
    @inlinable
    final func derive<U: Sendable, E1: Error, Derived: Future<U, E1> & DerivedStep<Result<T, E>>>(
        into future: Derived,
        _ context: ExecutionContext,
        step: StaticString,
        file: StaticString,
        line: UInt
    ) -> Future<U, E1> {
        future.depend(on: self, context, link: .step(step, file: file, line: line)) { result in future.fire(result) }
        return future
    }

    /// A new future with this future's result that is **one consumer** of it: a handle per consumer of
    /// shared work.
    ///
    /// ```swift
    /// // shared by every view that shows the image
    /// let download = cache.download(url)
    /// let mine = download.consumer()
    /// // later, when this view goes away:
    /// // the download stops only if every consumer asked
    /// mine.requestCancellation()
    /// ```
    ///
    /// A cancellation request on the returned future is this consumer's ask (GUARANTEES.md G8): `self`
    /// is asked to cancel once every consumer registered on it while it was pending has asked, so work
    /// shared with someone who still waits keeps running. Each call makes a new consumer. The returned
    /// future completes with this future's result, on the completing thread; when `self` has completed
    /// already, it is returned completed with the same result.
    public final func consumer(file: StaticString = #fileID, line: UInt = #line) -> Future<T, E> {
        let future = Future<T, E>()
        future.depend(on: self, link: .step("consumer", file: file, line: line)) { result in
            future.complete(result)
        }
        return future
    }
}
