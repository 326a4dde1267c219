import Dispatch
import Futures

/// Chapter: which step failed — failure traces, for a task or for the whole process.
func tourTracing() async {
    print("\n== Failure traces: which step failed ==")

    // A profile page: fetch the user, pick the avatar's address, fetch the avatar. Off by default, so
    // this first failure carries no trace.
    func loadAvatar(_ reply: Result<String, MirrorError>) -> Future<Int, MirrorError> {
        let user = Promise<String, MirrorError>()
        let avatar = user.future
            .map { name in "/avatars/\(name).png" }
            .flatMap { path in fetchSize(path, reply) }
        user.success("ada")
        return avatar
    }

    let untraced = loadAvatar(.failure(.offline))
    _ = await untraced.settledResult()
    print("tracing off: trace =", untraced.failureTrace.map(\.description) ?? "nil")

    // Tracing on for this task: the failure now tells the steps it went through. The user's fetch
    // succeeded, so the trace starts at the avatar request (flatMap's inner future) — but that request
    // was made inside flatMap's closure, on a global queue, outside the task: it is untraced ("…").
    await FuturesDiagnostics.withFailureTracing {
        let avatar = loadAvatar(.failure(.offline))
        _ = await avatar.settledResult()
        print("task scope:  \(avatar.failureTrace.map(\.description) ?? "nil")")
    }

    // For the whole process (every thread and queue), the trace is complete. debug() prints it under
    // its line when the future failed.
    FuturesDiagnostics.failureTracing = true
    let logged = loadAvatar(.failure(.notFound)).debug("avatar")
    _ = await logged.settledResult()
    FuturesDiagnostics.failureTracing = false
}

/// The avatar request: a promise completed later, on another queue.
private func fetchSize(_ path: String, _ reply: Result<String, MirrorError>) -> Future<Int, MirrorError> {
    let response = Promise<String, MirrorError>()
    DispatchQueue.global().async { response.complete(reply) }
    return response.future.map { $0.count }
}
