import Futures
import Synchronization
import Testing

// The checks a task face's enumeration test makes of every way the face makes a task (BoltsSwift's
// `Task`, Bolts' `BFTask`), for both faces at once: each face's test holds its tables of ways and
// producers (each row's call on the row's own line, so that the row's `#line` is the line the face
// records) and a ``TaskFace`` that says how to make, complete and fault an input in that face's dialect.

/// A task made by one row of an enumeration table, as its core future, whatever its type.
public struct MadeTask {
    /// Requests cancellation of the made task.
    public let requestCancellation: @Sendable () -> Void
    /// The made task's failure trace, read after looking at its outcome (so that the test leaves no
    /// unobserved-failure report).
    public let failureTrace: @Sendable () -> FailureTrace?
    /// The made task, kept alive as long as the check needs it.
    public let keep: AnyObject

    /// The task whose core future is `future` (a BoltsSwift `Task` is its own; a `BFTask` has one).
    public init<T, E>(_ future: Future<T, E>) {
        requestCancellation = { future.requestCancellation() }
        failureTrace = {
            _ = future.result  // looked at: no unobserved-failure report
            return future.failureTrace
        }
        keep = future
    }
}

/// One public way a face makes a task from an input task.
public struct TaskWay<Input>: Sendable, CustomTestStringConvertible {
    /// The step the face records.
    public let step: String
    /// The row's line: where the face must record the step.
    public let line: Int
    /// Whether the made task faults as soon as its input faults (a `whenAny` succeeds whatever its input's
    /// outcome).
    public let failsAtOnce: Bool
    /// Makes the task from the input.
    public let make: @Sendable (Input) -> MadeTask

    /// A row: `step` called at `line`, by `make`.
    public init(
        _ step: String, _ line: Int, failsAtOnce: Bool = true, _ make: @escaping @Sendable (Input) -> MadeTask
    ) {
        self.step = step
        self.line = line
        self.failsAtOnce = failsAtOnce
        self.make = make
    }

    /// The step and its line, as test reports show the row.
    public var testDescription: String { "\(step) (line \(line))" }
}

/// One public way a face makes a task without an input task: its work runs on the executor it is given.
public struct TaskProducer<Executor>: Sendable, CustomTestStringConvertible {
    /// The step the face records.
    public let step: String
    /// The row's line: where the face must record the step.
    public let line: Int
    /// Whether the made task faults once its work has run (a delay succeeds, later).
    public let fails: Bool
    /// Makes the task, its work on the executor.
    public let make: @Sendable (Executor) -> MadeTask

    /// A row: `step` called at `line`, by `make`.
    public init(_ step: String, _ line: Int, fails: Bool = true, _ make: @escaping @Sendable (Executor) -> MadeTask) {
        self.step = step
        self.line = line
        self.fails = fails
        self.make = make
    }

    /// The step and its line, as test reports show the row.
    public var testDescription: String { "\(step) (line \(line))" }
}

/// Closures kept until ``runAll()``: an executor that hands its work here leaves the task made on it
/// pending until then.
public final class HeldWork: Sendable {
    private let work = Mutex<[@Sendable () -> Void]>([])

    /// No work held.
    public init() {}

    /// Keeps `closure` until ``runAll()``.
    public func hold(_ closure: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(closure) }
    }

    /// Runs every closure held so far, in order, on this thread.
    public func runAll() {
        for closure in work.withLock({ work in
            defer { work = [] }
            return work
        }) { closure() }
    }
}

/// A face's dialect, as the enumeration checks need it: its write end (`Source`), its task of `Int`
/// (`Input`) and its executor.
public struct TaskFace<Source, Input, Executor: Sendable>: Sendable {
    /// The face's test file, as `#fileID` gives it: where every row's call is.
    public let file: String
    /// The step the face's write end records for its task.
    public let writeEnd: String
    let makeSource: @Sendable (_ file: StaticString, _ line: UInt) -> Source
    let task: @Sendable (Source) -> Input
    let succeed: @Sendable (Source) -> Void
    let fail: @Sendable (Source) -> Void
    let faulted: @Sendable () -> Input
    let future: @Sendable (Input) -> Future<Int, any Error>
    let immediate: Executor
    let holding: @Sendable (HeldWork) -> Executor

    /// The face's dialect.
    ///
    /// - Parameters:
    ///   - file: The face's test file, as `#fileID` gives it.
    ///   - writeEnd: The step the write end records (its type's name).
    ///   - source: A write end created at `file`:`line` (passed on to its initializer).
    ///   - task: The write end's task.
    ///   - succeed: Completes the write end's task with a value.
    ///   - fail: Faults the write end's task.
    ///   - faulted: A task that has faulted already.
    ///   - future: The task's core future.
    ///   - immediate: The executor that runs work at once, on the calling thread.
    ///   - holding: An executor that hands its work to the ``HeldWork``.
    public init(
        file: String,
        writeEnd: String,
        source: @escaping @Sendable (_ file: StaticString, _ line: UInt) -> Source,
        task: @escaping @Sendable (Source) -> Input,
        succeed: @escaping @Sendable (Source) -> Void,
        fail: @escaping @Sendable (Source) -> Void,
        faulted: @escaping @Sendable () -> Input,
        future: @escaping @Sendable (Input) -> Future<Int, any Error>,
        immediate: Executor,
        holding: @escaping @Sendable (HeldWork) -> Executor
    ) {
        self.file = file
        self.writeEnd = writeEnd
        self.makeSource = source
        self.task = task
        self.succeed = succeed
        self.fail = fail
        self.faulted = faulted
        self.future = future
        self.immediate = immediate
        self.holding = holding
    }
}

extension TaskFace {
    /// Checks that a cancellation request on the task `way` makes reaches its input as one consumer's
    /// ask: the input is asked only once its other consumer has asked too.
    public func expectARequestReachesTheInputAsOneConsumersAsk(
        _ way: TaskWay<Input>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let source = makeSource(#fileID, #line)
        let input = future(task(source))
        let asked = Atomic<Int>(0)
        input.onCancellationRequested { asked.add(1, ordering: .relaxed) }
        let other = input.consumer()
        let made = way.make(task(source))
        made.requestCancellation()
        // Another consumer still waits: the made task's request is one ask, not a request.
        #expect(asked.load(ordering: .relaxed) == 0, "\(way)", sourceLocation: sourceLocation)
        other.requestCancellation()
        // Every consumer has asked now.
        #expect(asked.load(ordering: .relaxed) == 1, "\(way)", sourceLocation: sourceLocation)
        fail(source)
        // Looked at: no unobserved-failure report.
        _ = (made.failureTrace(), other.result, input.result)
        withExtendedLifetime(made.keep) {}
    }

    /// Checks that the failure trace of the task `way` makes ends with the way's step at its row's line,
    /// for a pending input that faults later and for an input that has faulted already (a way that does
    /// not fault at once is not checked).
    public func expectTheFailureTraceNamesTheStepAtItsCallersLine(
        _ way: TaskWay<Input>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard way.failsAtOnce else { return }
        FuturesDiagnostics.withFailureTracing {
            // A pending input that faults later.
            let source = makeSource(#fileID, #line)
            let made = way.make(task(source))
            fail(source)
            expectTrace(
                made.failureTrace(), endsWith: way.step, at: file, line: way.line, sourceLocation: sourceLocation)
            // An input that has faulted already.
            expectTrace(
                way.make(faulted()).failureTrace(), endsWith: way.step, at: file, line: way.line,
                sourceLocation: sourceLocation)
        }
    }

    /// Checks that the failure trace of the task `producer` makes ends with its step at its row's line,
    /// its work run at once and run later (a producer that does not fault is not checked).
    public func expectTheFailureTraceOfAProducerNamesItsStepAtItsCallersLine(
        _ producer: TaskProducer<Executor>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard producer.fails else { return }
        FuturesDiagnostics.withFailureTracing {
            // Run at once.
            expectTrace(
                producer.make(immediate).failureTrace(), endsWith: producer.step, at: file, line: producer.line,
                sourceLocation: sourceLocation)
            // Run later.
            let held = HeldWork()
            let made = producer.make(holding(held))
            held.runAll()
            expectTrace(
                made.failureTrace(), endsWith: producer.step, at: file, line: producer.line,
                sourceLocation: sourceLocation)
        }
    }

    /// In a child process (tracking is process-wide, so it is turned on in a process of its own; checks
    /// with `childRequire`): each way's task is listed by the pending-futures report under its input, the
    /// write end's task listed at the line it was created at, at the way's line; it waits on something; and
    /// nothing is left pending at the input's line once the input has completed.
    public func requireEveryWayIsListedUnderItsInput(_ ways: [TaskWay<Input>]) {
        FuturesDiagnostics.tracksPendingFutures = true
        for way in ways {
            let sourceFile = "\(#fileID)"
            let sourceLine: UInt = #line
            let source = makeSource(#fileID, sourceLine)
            let made = way.make(task(source))
            let chains = FuturesDiagnostics.pendingFutures()
            let chain = chains.first {
                $0.site.name == writeEnd && $0.site.file == sourceFile && $0.site.line == sourceLine
            }
            childRequire(chain != nil, "\(way): no chain for its input in \(chains)")
            let listed = chain!.dependents.first {
                $0.site.name == way.step && $0.site.file == file && $0.site.line == UInt(way.line)
            }
            childRequire(listed != nil, "\(way) is not listed under its input: \(chain!)")
            childRequire(!listed!.waitsOn.isEmpty, "\(way) waits for nothing: \(chain!)")
            succeed(source)
            withExtendedLifetime(made.keep) {}
            childRequire(
                FuturesDiagnostics.pendingFutures().allSatisfy {
                    $0.site.file != sourceFile || $0.site.line != sourceLine
                },
                "\(way) left a pending task: \(FuturesDiagnostics.pendingFutures())")
        }
    }

    /// In the same child process: a task made on an executor that has not run its work yet is listed at
    /// its row's line, and is no longer once the work has run (unless it does not fault: a delay stays
    /// pending).
    public func requireEveryProducerIsListed(_ producers: [TaskProducer<Executor>]) {
        FuturesDiagnostics.tracksPendingFutures = true
        for producer in producers {
            let held = HeldWork()
            let made = producer.make(holding(held))
            let isListed = {
                FuturesDiagnostics.pendingFutures().contains { chain in
                    ([chain.site] + chain.dependents.map(\.site)).contains {
                        $0.name == producer.step && $0.file == file && $0.line == UInt(producer.line)
                    }
                }
            }
            childRequire(isListed(), "\(producer) is not listed: \(FuturesDiagnostics.pendingFutures())")
            held.runAll()
            withExtendedLifetime(made.keep) {}
            childRequire(!producer.fails || !isListed(), "\(producer) left a pending task")
        }
    }
}
