import SimpleFutures

// A heart-rate monitor app written the way SimpleFutures clients write one: a Bluetooth-like service
// protocol whose scans and notifications are `FutureStream`s and whose requests are `Future`s, protocol
// extensions with default implementations, contexts passed in as parameters, throwing closures that
// state no type, `CancelToken`s to stop listening, `future { }` for background work and completion
// handlers. It imports only `SimpleFutures` (which brings Dispatch and Foundation, as the original's
// framework did). This directory is compiled twice: by SimpleFuturesAppTests
// in the Swift 6 language mode and by SimpleFuturesAppSwift5Tests in Swift 5.

struct Peripheral: Equatable, Sendable {
    let id: Int
    let name: String
    let rssi: Int
}

struct HeartRate: Equatable, Sendable {
    let bpm: Int
    let sensorContact: Bool
}

enum MonitorError: Error, Equatable {
    case poweredOff
    case connectionFailed(Int)
    case badReading(Int)
    case badFirmware(String)
    case tooFar(Int)
}

// MARK: - The service

protocol HeartRateMonitor: Sendable {
    /// Every peripheral the radio hears, as it hears it.
    func scan() -> FutureStream<Peripheral>
    /// The peripheral, once connected.
    func connect(_ peripheral: Peripheral) -> Future<Peripheral>
    /// Where the sensor is worn.
    func bodyLocation(of peripheral: Peripheral) -> Future<String>
    /// The raw heart-rate notifications of a connected peripheral.
    func notifications(of peripheral: Peripheral) -> FutureStream<Int>
}

extension HeartRateMonitor {
    /// The first peripheral heard whose name starts with `prefix`; listening stops once it is heard. (A
    /// stream's `withFilter` turns each rejected value into a `FuturesError.noSuchElement` failure.)
    func firstPeripheral(named prefix: String, context: ExecutionContext = QueueContext.global) -> Future<Peripheral> {
        let found = Future<Peripheral>()
        let token = CancelToken()
        let once = Sampler<Peripheral>(1)
        let matching = scan().withFilter(context: context) { peripheral in
            peripheral.name.hasPrefix(prefix)
        }
        matching.onComplete(context: context, cancelToken: token) { result in
            switch result {
            case .failure(FuturesError.noSuchElement):
                return
            case .success(let peripheral):
                guard once.add(peripheral) != nil else { return }
                found.success(peripheral)
            case .failure(let error):
                guard once.stop() else { return }
                found.failure(error)
            }
            matching.cancel(token)
        }
        return found
    }

    /// Connects to the first matching peripheral and reads where it is worn.
    func locate(named prefix: String, context: ExecutionContext = QueueContext.global) -> Future<String> {
        firstPeripheral(named: prefix, context: context)
            .flatMap(context: context) { peripheral in
                self.connect(peripheral)
            }
            .flatMap(context: context) { connected in
                self.bodyLocation(of: connected)
            }
    }

    /// Connects, trying once more after a failed connection; other errors pass through.
    func connectRetrying(
        _ peripheral: Peripheral, context: ExecutionContext = QueueContext.global
    ) -> Future<Peripheral> {
        connect(peripheral).recoverWith(context: context) { error in
            guard case MonitorError.connectionFailed = error else { throw error }
            return self.connect(peripheral)
        }
    }

    /// Connects only to a peripheral that is close enough.
    func connectNearby(_ peripheral: Peripheral, minimumRSSI: Int = -80) -> Future<Peripheral> {
        connect(peripheral)
            .withFilter { connected in connected.rssi >= minimumRSSI }
            .mapError { error in
                if case FuturesError.noSuchElement = error {
                    return MonitorError.tooFar(peripheral.rssi)
                }
                return error
            }
    }

    /// The body location, or "unknown" whatever went wrong.
    func bodyLocationOrUnknown(of peripheral: Peripheral) -> Future<String> {
        bodyLocation(of: peripheral) ?? "unknown"
    }

    /// Decoded heart rates: the low bit is the contact flag, the rest the rate. A negative value is a bad
    /// reading, which the stream delivers as an error.
    func heartRates(
        of peripheral: Peripheral, context: ExecutionContext = QueueContext.global
    ) -> FutureStream<HeartRate> {
        notifications(of: peripheral).map(context: context) { raw in
            guard raw >= 0 else { throw MonitorError.badReading(raw) }
            let contact = raw & 1 == 1
            return HeartRate(bpm: raw >> 1, sensorContact: contact)
        }
    }

    /// The first `count` heart rates read with the sensor in contact; listening stops once they are in.
    func samples(
        _ count: Int, of peripheral: Peripheral, context: ExecutionContext = QueueContext.global
    ) -> Future<[HeartRate]> {
        let collected = Future<[HeartRate]>()
        let token = CancelToken()
        let rates = heartRates(of: peripheral, context: context).withFilter(context: context) { $0.sensorContact }
        let sampler = Sampler<HeartRate>(count)
        rates.onComplete(context: context, cancelToken: token) { result in
            switch result {
            case .failure(FuturesError.noSuchElement):
                // A reading without contact.
                return
            case .success(let rate):
                if let all = sampler.add(rate) {
                    collected.success(all)
                    rates.cancel(token)
                }
            case .failure(let error):
                if sampler.stop() {
                    collected.failure(error)
                    rates.cancel(token)
                }
            }
        }
        return collected
    }

    /// Connects to every peripheral, in order; the first failure fails all.
    func connectAll(
        _ peripherals: [Peripheral], context: ExecutionContext = QueueContext.global
    ) -> Future<[Peripheral]> {
        peripherals.traverse(context: context) { peripheral in
            self.connect(peripheral)
        }
    }

    /// The locations of peripherals already connected.
    func locations(of peripherals: [Peripheral]) -> Future<[String]> {
        peripherals.map { bodyLocation(of: $0) }.sequence()
    }

    /// The signal strength of all the connected peripherals together.
    func totalRSSI(of peripherals: [Peripheral]) -> Future<Int> {
        peripherals.map { connect($0) }.fold(initial: 0) { total, peripheral in
            total + peripheral.rssi
        }
    }
}

/// Collects values until it has `count`; thread-safe.
final class Sampler<T: Sendable>: @unchecked Sendable {
    // Safe: `values` and `done` are only read or written while `lock` is held.
    private let lock = NSLock()
    private let count: Int
    private var values: [T] = []
    private var done = false

    init(_ count: Int) {
        self.count = count
    }

    /// Adds `value`; returns all the values when this one made `count`.
    func add(_ value: T) -> [T]? {
        lock.withLock {
            guard !done else { return nil }
            values.append(value)
            guard values.count == count else { return nil }
            done = true
            return values
        }
    }

    /// Stops collecting; `true` the first time.
    func stop() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }
}

// MARK: - A simulated radio

/// The app's Bluetooth stack in the tests: what it hears and answers is driven from its own queue.
final class SimulatedRadio: HeartRateMonitor, @unchecked Sendable {
    // Safe: every `var` is only read or written while `lock` is held.
    let queue = Queue("heart-rate.radio")
    private let lock = NSLock()
    private var scans: [StreamPromise<Peripheral>] = []
    private var notifying: [Int: StreamPromise<Int>] = [:]
    private var failuresLeft: [Int: Int] = [:]
    private var attempts = 0
    private var powered = true
    private let locations: [Int: String]

    init(locations: [Int: String]) {
        self.locations = locations
    }

    var connectionAttempts: Int {
        lock.withLock { attempts }
    }

    var poweredOn: Bool {
        get { lock.withLock { powered } }
        set { lock.withLock { powered = newValue } }
    }

    /// The next `count` connections to `id` fail.
    func failConnections(to id: Int, count: Int) {
        lock.withLock { failuresLeft[id] = count }
    }

    func scan() -> FutureStream<Peripheral> {
        let promise = StreamPromise<Peripheral>(capacity: 16)
        if poweredOn {
            lock.withLock { scans.append(promise) }
        } else {
            promise.failure(MonitorError.poweredOff)
        }
        return promise.stream
    }

    /// The radio hears `peripheral`: every scan receives it.
    func hear(_ peripheral: Peripheral) {
        let listening = lock.withLock { scans }
        queue.async {
            for scan in listening { scan.success(peripheral) }
        }
    }

    func connect(_ peripheral: Peripheral) -> Future<Peripheral> {
        let promise = Promise<Peripheral>()
        queue.async {
            let fails = self.lock.withLock {
                self.attempts += 1
                let left = self.failuresLeft[peripheral.id, default: 0]
                self.failuresLeft[peripheral.id] = max(0, left - 1)
                return left > 0
            }
            if fails {
                promise.failure(MonitorError.connectionFailed(peripheral.id))
            } else {
                promise.success(peripheral)
            }
        }
        return promise.future
    }

    func bodyLocation(of peripheral: Peripheral) -> Future<String> {
        future(context: QueueContext(queue: queue)) {
            guard let location = self.locations[peripheral.id] else {
                throw MonitorError.connectionFailed(peripheral.id)
            }
            return location
        }
    }

    func notifications(of peripheral: Peripheral) -> FutureStream<Int> {
        lock.withLock {
            if let stream = notifying[peripheral.id] { return stream.stream }
            let promise = StreamPromise<Int>()
            notifying[peripheral.id] = promise
            return promise.stream
        }
    }

    /// The peripheral `id` notifies `raw` values, in order.
    func notify(_ id: Int, _ raw: [Int]) {
        let promise = lock.withLock { notifying[id] }
        queue.async {
            for value in raw { promise?.success(value) }
        }
    }
}

// MARK: - Background work and completion handlers

/// Parses a firmware version such as "2.10.1" in the background.
func firmwareVersion(from text: String, context: ExecutionContext = QueueContext.global) -> Future<[Int]> {
    future(context: context) {
        let parts = text.split(separator: ".").map { Int($0) }
        guard !parts.isEmpty, !parts.contains(nil) else { throw MonitorError.badFirmware(text) }
        return parts.compactMap { $0 }
    }
}

/// A battery API from before futures, answering through a completion handler.
final class BatteryService: Sendable {
    private let queue = DispatchQueue(label: "heart-rate.battery")
    let level: Int?

    init(level: Int?) {
        self.level = level
    }

    func readLevel(completion: @escaping @Sendable (Int, (any Error)?) -> Void) {
        queue.async {
            if let level = self.level {
                completion(level, nil)
            } else {
                completion(0, MonitorError.poweredOff)
            }
        }
    }

    func batteryLevel() -> Future<Int> {
        future(method: readLevel)
    }
}

/// What the app shows, in order.
final class Screen: @unchecked Sendable {
    // Safe: `lines` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var lines: [String] = []

    func show(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var shown: [String] {
        lock.withLock { lines }
    }
}

/// Shows heart rates on the screen until stopped.
final class HeartRateDisplay: Sendable {
    private let token = CancelToken()
    private let rates: FutureStream<HeartRate>
    let screen = Screen()

    init(monitor: any HeartRateMonitor, peripheral: Peripheral, context: ExecutionContext = QueueContext.main) {
        rates = monitor.heartRates(of: peripheral, context: context)
        rates.onSuccess(context: context, cancelToken: token) { rate in
            self.screen.show("\(rate.bpm) bpm")
        }
        rates.onFailure(context: context, cancelToken: token) { error in
            self.screen.show("error: \(error)")
        }
    }

    /// Stops showing rates; returns whether anything was still listening.
    @discardableResult
    func stop() -> Bool {
        rates.cancel(token)
    }
}
