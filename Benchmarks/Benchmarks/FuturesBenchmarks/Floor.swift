import Benchmark
import FuturesWorkloads

/// The allocation floor of W1One and W1: exactly the heap objects `<Wn>.Futures` allocates, which any
/// future API whose `map` returns a new future must create (W1One: the completed root and the mapped
/// future; W1: the root and three), each holding its value, then freed; each step a call, and the
/// observer a closure called with the last value. Nothing else: no synchronisation, no callback list, no
/// trampoline. Between this and `<Wn>.Futures` is the library's own work; between `<Wn>.Closure` (one
/// allocation: its observer, boxed by `blackHole`) and this, the objects alone.
func registerAllocationFloor() {

    Benchmark("W1One.Objects", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            let root = FloorCell.make(identity(1))
            let mapped = FloorCell.make(floorStep(root.value))
            floorDeliver(mapped.value) { if $0 == 2 { sum.increment() } }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1One.Objects lost callbacks")
    }

    Benchmark("W1.Objects", configuration: Config.kilo()) { benchmark in
        let sum = AtomicCounter()
        for _ in benchmark.scaledIterations {
            var cell = FloorCell.make(identity(1))
            for _ in 0..<3 { cell = FloorCell.make(floorStep(cell.value)) }
            floorDeliver(cell.value) { if $0 == 4 { sum.increment() } }
        }
        check(sum.current == benchmark.scaledIterations.count, "W1.Objects lost callbacks")
    }
}

/// A step the optimiser cannot fold into the loop, as a `map`'s closure is called.
@inline(never)
private func floorStep(_ value: Int) -> Int { value + 1 }

/// Calls `observer` with `value` out of line, as a library calls a registered callback; the closure is
/// not boxed.
@inline(never)
private func floorDeliver(_ value: Int, to observer: (Int) -> Void) { observer(value) }

/// One heap object of a `Future<Int, Never>`'s size (40 bytes: the 16-byte header, the value, two words).
private final class FloorCell {
    let value: Int
    var flags: UInt64 = 0
    var extra: UInt64 = 0

    init(_ value: Int) { self.value = value }

    /// Allocated out of line, so that the optimiser cannot keep the object on the stack (a library's
    /// futures are on the heap) and without the retain and release that passing it to `blackHole` costs.
    @inline(never)
    static func make(_ value: Int) -> FloorCell { FloorCell(value) }
}
