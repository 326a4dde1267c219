import SimpleFutures
import Testing

// This file imports only `SimpleFutures`: a public function of the user's may name the face's contexts
// in its default arguments (a Swift 6 error unless the module that declares them counts as imported).

/// `value` mapped on `context`, the main queue if omitted.
public func valueOnMain(_ value: Int, context: ExecutionContext = QueueContext.main) -> Future<Int> {
    Future(value: value).map(context: context) { $0 }
}

/// `value + 1` mapped on `context`, the global queue if omitted.
public func valueOnGlobal(_ value: Int, context: ExecutionContext = QueueContext.global) -> Future<Int> {
    Future(value: value).map(context: context) { $0 + 1 }
}

/// `value + 2` mapped on `context`, the library's default context if omitted.
public func valueOnDefault(_ value: Int, context: ExecutionContext = QueueContext.futuresDefault) -> Future<Int> {
    Future(value: value).map(context: context) { $0 + 2 }
}

@Suite("SimpleFutures: a file that imports only the face")
struct ImportOnlyTheFaceTests {
    @Test(.hangGuard()) func contextsServeAsDefaultArgumentsOfPublicFunctions() async {
        #expect(await awaitValue(of: valueOnGlobal(1)) == 2)
        #expect(await awaitValue(of: valueOnDefault(1)) == 3)
        #expect(valueOnMain(1, context: ImmediateContext()).result?.value == 1)
    }
}
