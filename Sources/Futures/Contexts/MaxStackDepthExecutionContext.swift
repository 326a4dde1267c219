import Dispatch

/// Runs a task inline on the calling thread until 20 such tasks are nested on that thread, then hands
/// further tasks to a global queue so the stack can unwind.
///
/// BrightFutures took this context from Bolts: it is as fast as ``immediateExecutionContext`` for
/// ordinary chains and cannot overflow the stack on deep recursion. (The library's own completion
/// cascades are trampolined anyway, so ``immediateExecutionContext`` is stack-safe too; this context
/// matters for code that calls a context recursively itself.)
///
/// The depth is counted per thread; a task that runs on the global queue starts a fresh count there.
public let maxStackDepthExecutionContext = ExecutionContext { task in
    if !Trampoline.runCountingContextDepth(limit: maxStackDepthExecutionContextLimit, task) {
        DispatchQueue.global().async(execute: task)
    }
}

/// How many ``maxStackDepthExecutionContext`` tasks may nest on one thread before the next one hops.
package let maxStackDepthExecutionContextLimit = 20
