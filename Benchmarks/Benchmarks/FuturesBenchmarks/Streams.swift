import Benchmark
import FuturesWorkloads
import OpenCombine

/// Streams reference: the same pipeline (map + filter to one subscriber) on an OpenCombine subject.
func registerCompetitorsStreams() {
    Benchmark("Streams.Map1.OpenCombine", configuration: Config.kilo()) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let received = AtomicCounter()
        let cancellable = subject.map { $0 + 1 }.filter { $0 % 2 == 0 }.sink { _ in received.increment() }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        blackHole(cancellable)
        check(received.current == benchmark.scaledIterations.count / 2, "Streams.Map1.OpenCombine lost values")
    }
}
