#if ServiceContext
    internal import ServiceContextModule

    /// The runtime function behind `TaskLocal.get()`: the address of the value bound most recently to the
    /// task-local `key` (the `TaskLocal` object) in the current task or, outside a task, on this thread;
    /// `nil` when none is bound. `TaskLocal.get()` does exactly this, then copies the value out through
    /// unspecialised generic code, which cost about 130 of the 160 instructions of a read (measured with
    /// callgrind): too much for a check made at every registration and completion. Safe to call directly: it
    /// is exported by the concurrency runtime with this signature (a pointer in, a pointer out, Swift calling
    /// convention), and the value stays bound, so the memory stays valid, for the rest of the calling scope.
    @_silgen_name("swift_task_localValueGet")
    private func taskLocalValueGet(key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

    /// How the trace context (`ServiceContext`, a task-local) travels with the work it belongs to.
    ///
    /// A task-local is lost on any hop that is not a child task: a callback stored in a pending future and
    /// run by whoever completes it, a closure handed to a Dispatch queue, work queued on the trampoline.
    /// So the library captures the context current where a closure of yours is **registered** and binds
    /// it around the run:
    ///
    /// - ``Future/whenComplete(_:_:)`` and ``Future/whenCompleteRemovable(_:_:)``, through which every
    ///   callback, combinator step, `BFTask` continuation and `Deferred` step is registered, bind the
    ///   body when a context is current (`bound(_:)`). A body registered with none is stored as
    ///   it is.
    /// - The places that run stored callbacks (``Future/runCompletion(_:_:handsOut:)``,
    ///   ``ScheduledCallback/runOnce(_:)``) run them with no context when the thread they run on has one
    ///   (``withoutInherited(_:)``): a callback registered without a context must not see the completer's.
    ///   A bound body then sets its own.
    /// - ``ExecutionContext/execute(_:)`` binds the task to the submitter's context on every hop to another
    ///   context; work queued on the trampoline is bound to the context of the frame that queued it.
    /// - The few user closures that are not registered through a future: a limiter's items (bound at
    ///   submission), a stream's handlers (bound at subscription), `DispatchQueue.asyncValue` bodies,
    ///   `Queue.delay` requests.
    /// - ``ClockTimer``, the one timer under every time-based operation, binds its body where the timer is
    ///   set, on every clock: retry attempts after a back-off, delays, deadlines and scheduled cancellations
    ///   run in the context of the code that scheduled them.
    ///
    /// Closures that run synchronously on the registering thread (the fast paths of combinators on
    /// completed futures) already run in the registering context and need nothing.
    ///
    /// Without the `ServiceContext` trait none of this is compiled: the core has no dependency and no cost.
    @usableFromInline
    enum ContextTravel {
        /// Whether a trace context is current here: one task-local read, as `ServiceContext.current != nil`,
        /// without the generic `TaskLocal.get()` (see ``taskLocalValueGet(key:)``).
        @usableFromInline
        static var isActive: Bool {
            let key = unsafeBitCast(ServiceContext.$current, to: UnsafeRawPointer.self)
            guard let slot = taskLocalValueGet(key: key) else { return false }
            return slot.assumingMemoryBound(to: ServiceContext?.self).pointee != nil
        }

        /// `body`, bound to the context current now: it runs with that context wherever and whenever it
        /// runs. `body` itself when no context is current.
        @usableFromInline
        static func bound<A>(_ body: @escaping @Sendable (A) -> Void) -> @Sendable (A) -> Void {
            guard let captured = ServiceContext.current else { return body }
            return { argument in ServiceContext.withValue(captured) { body(argument) } }
        }

        /// `task`, bound to the context current now; `task` itself when none is current.
        @usableFromInline
        static func bound(_ task: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
            guard let captured = ServiceContext.current else { return task }
            return { ServiceContext.withValue(captured) { task() } }
        }

        /// `task`, bound to the context current now, or to none when none is current: it never runs with a
        /// context it did not capture. For closures that may run on a thread that has another context (a
        /// stream's handler, run by whoever publishes; a limiter's item, started by whichever item
        /// finished last).
        @usableFromInline
        static func boundAlways<A>(_ body: @escaping @Sendable (A) -> Void) -> @Sendable (A) -> Void {
            let captured = ServiceContext.current
            return { argument in run(with: captured) { body(argument) } }
        }

        /// `boundAlways(_:)` for work that returns a value (a limiter's item).
        static func boundAlways<R>(_ work: @escaping @Sendable () -> R) -> @Sendable () -> R {
            let captured = ServiceContext.current
            return {
                var output: R?
                run(with: captured) { output = work() }
                return output!
            }
        }

        /// `job` (queued on the trampoline: not `Sendable`, it runs on the thread that queued it), bound to
        /// the context current now; `job` itself when none is current (the trampoline runs its queued jobs
        /// with no context, see `Trampoline.runQueued(_:)`).
        @usableFromInline
        static func boundJob(_ job: @escaping () -> Void) -> () -> Void {
            guard let captured = ServiceContext.current else { return job }
            return { ServiceContext.withValue(captured) { job() } }
        }

        /// Runs `body` with `captured` as the current context (none when `nil`), changing nothing when it
        /// is already so.
        static func run(with captured: ServiceContext?, _ body: () -> Void) {
            if captured == nil, ServiceContext.current == nil {
                body()
            } else {
                ServiceContext.withValue(captured) { body() }
            }
        }

        /// Runs `body` with no current context: callbacks registered without one must not see the context
        /// of the thread that completes their future.
        @usableFromInline
        static func withoutInherited(_ body: () -> Void) {
            ServiceContext.withValue(nil) { body() }
        }
    }
#endif
