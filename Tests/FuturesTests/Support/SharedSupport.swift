// The support every test target shares: depth, kinds of thread, the hang guard.
@_exported import FuturesTestSupport
