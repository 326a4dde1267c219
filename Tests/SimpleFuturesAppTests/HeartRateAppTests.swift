import Foundation
import FuturesTestSupport
import SimpleFutures
import Testing

// Checks of the heart-rate app (HeartRateApp.swift): values delivered, errors propagated, listeners
// cancelled. Every wait is on a future's or a stream's callback, or on a drained serial queue, never a sleep.

private let strap = Peripheral(id: 1, name: "HRM-Strap", rssi: -60)
private let watch = Peripheral(id: 2, name: "Watch", rssi: -90)
private let ring = Peripheral(id: 3, name: "HRM-Ring", rssi: -70)

private func makeRadio() -> SimulatedRadio {
    SimulatedRadio(locations: [1: "chest", 2: "wrist"])
}

/// The future's value, or the error it failed with, once it has one.
private func outcome<T>(of future: Future<T>) async -> Try<T> {
    await withCheckedContinuation { continuation in
        future.onComplete(context: ImmediateContext()) { continuation.resume(returning: $0) }
    }
}

/// The future's value; throws its error.
private func value<T>(of future: Future<T>) async throws -> T {
    try await outcome(of: future).get()
}

/// The first `count` results of `stream`.
private func first<T>(_ count: Int, of stream: FutureStream<T>) async -> [Try<T>] {
    let token = CancelToken()
    let sampler = Sampler<Try<T>>(count)
    let results: [Try<T>] = await withCheckedContinuation { continuation in
        stream.onComplete(context: ImmediateContext(), cancelToken: token) { result in
            if let all = sampler.add(result) { continuation.resume(returning: all) }
        }
    }
    stream.cancel(token)
    return results
}

@Suite("SimpleFutures app: scanning and connecting", .hangGuard())
struct HeartRateConnectionTests {
    let radio = makeRadio()

    @Test func theFirstMatchingPeripheralIsFound() async throws {
        let found = radio.firstPeripheral(named: "HRM")
        radio.hear(watch)
        radio.hear(ring)
        radio.hear(strap)
        #expect(try await value(of: found) == ring)
    }

    @Test func locateConnectsThenReads() async throws {
        let location = radio.locate(named: "HRM-S", context: ImmediateContext())
        radio.hear(ring)
        radio.hear(strap)
        #expect(try await value(of: location) == "chest")
        #expect(radio.connectionAttempts == 1)
    }

    @Test func aPoweredOffRadioFailsTheScan() async {
        radio.poweredOn = false
        let found = radio.firstPeripheral(named: "HRM", context: ImmediateContext())
        #expect(await outcome(of: found).error as? MonitorError == .poweredOff)
        #expect(await outcome(of: radio.locate(named: "HRM")).error as? MonitorError == .poweredOff)
    }

    @Test func aFailedConnectionIsTriedOnceMore() async throws {
        radio.failConnections(to: 1, count: 1)
        #expect(try await value(of: radio.connectRetrying(strap)) == strap)
        #expect(radio.connectionAttempts == 2)
        radio.failConnections(to: 1, count: 2)
        let twice = await outcome(of: radio.connectRetrying(strap, context: ImmediateContext()))
        #expect(twice.error as? MonitorError == .connectionFailed(1))
        #expect(radio.connectionAttempts == 4)
    }

    @Test func withFilterAndMapErrorRejectAFarPeripheral() async throws {
        #expect(try await value(of: radio.connectNearby(strap)) == strap)
        #expect(await outcome(of: radio.connectNearby(watch)).error as? MonitorError == .tooFar(-90))
        radio.failConnections(to: 1, count: 1)
        #expect(await outcome(of: radio.connectNearby(strap)).error as? MonitorError == .connectionFailed(1))
    }

    @Test func theDefaultOperatorRecoversAFailedRead() async throws {
        #expect(try await value(of: radio.bodyLocationOrUnknown(of: watch)) == "wrist")
        #expect(try await value(of: radio.bodyLocationOrUnknown(of: ring)) == "unknown")
    }

    @Test func sequenceTraverseAndFoldOverPeripherals() async throws {
        #expect(try await value(of: radio.connectAll([strap, watch])) == [strap, watch])
        radio.failConnections(to: 2, count: 1)
        let failed = await outcome(of: radio.connectAll([strap, watch], context: ImmediateContext()))
        #expect(failed.error as? MonitorError == .connectionFailed(2))
        #expect(try await value(of: radio.locations(of: [watch, strap])) == ["wrist", "chest"])
        #expect(await outcome(of: radio.locations(of: [strap, ring])).error as? MonitorError == .connectionFailed(3))
        #expect(try await value(of: radio.totalRSSI(of: [strap, watch, ring])) == -220)
    }

    @Test func aStreamFlatMapsEachPeripheralToItsConnection() async throws {
        let connected = radio.scan().flatMap(context: ImmediateContext()) { peripheral in
            self.radio.connect(peripheral)
        }
        radio.hear(strap)
        radio.hear(watch)
        let results = await first(2, of: connected)
        #expect(Set(results.compactMap(\.value).map(\.id)) == [1, 2])
    }
}

@Suite("SimpleFutures app: heart rates", .hangGuard())
struct HeartRateStreamTests {
    let radio = makeRadio()

    @Test func notificationsAreDecodedAndABadOneIsAnError() async {
        let rates = radio.heartRates(of: strap, context: ImmediateContext())
        radio.notify(1, [145, 120, -1])
        let results = await first(3, of: rates)
        #expect(results[0].value == HeartRate(bpm: 72, sensorContact: true))
        #expect(results[1].value == HeartRate(bpm: 60, sensorContact: false))
        #expect(results[2].error as? MonitorError == .badReading(-1))
    }

    @Test func samplesKeepOnlyReadingsWithContactAndStopListening() async throws {
        let samples = radio.samples(2, of: strap)
        radio.notify(1, [120, 145, 147, 149])
        #expect(try await value(of: samples).map(\.bpm) == [72, 73])
        let failed = radio.samples(3, of: watch, context: ImmediateContext())
        radio.notify(2, [145, -4, 147])
        #expect(await outcome(of: failed).error as? MonitorError == .badReading(-4))
    }

    @Test func theDisplayShowsRatesUntilStopped() {
        // On the immediate context the display's callbacks run on the radio's queue, as the radio
        // delivers: once that queue is drained, they have run.
        let display = HeartRateDisplay(monitor: radio, peripheral: strap, context: ImmediateContext())
        radio.notify(1, [145, 147])
        radio.queue.sync {}
        #expect(display.screen.shown == ["72 bpm", "73 bpm"])
        #expect(display.stop())
        radio.notify(1, [149, -2])
        radio.queue.sync {}
        #expect(display.screen.shown == ["72 bpm", "73 bpm"])
        #expect(!display.stop())
    }

    @Test func theDisplayRunsOnTheContextItIsGiven() async {
        let screenQueue = Queue("heart-rate.screen")
        let display = HeartRateDisplay(monitor: radio, peripheral: strap, context: QueueContext(queue: screenQueue))
        radio.notify(1, [-3])
        // The error reaches the display's failure callback on `screenQueue`; a listener added later on the
        // same queue and stream order runs after it.
        _ = await first(1, of: radio.heartRates(of: strap, context: QueueContext(queue: screenQueue)))
        screenQueue.sync {}
        #expect(display.screen.shown == ["error: badReading(-3)"])
    }

    @Test func aCancelledMapLeavesItsFutureAndCallbacksUntouched() async {
        let request = Promise<Int>()
        let token = CancelToken()
        let ran = Screen()
        let mapped = request.future.map(context: ImmediateContext(), cancelToken: token) { $0 * 2 }
        request.future.onSuccess(context: ImmediateContext(), cancelToken: token) { _ in ran.show("success") }
        request.future.onSuccess(context: ImmediateContext()) { value in ran.show("kept \(value)") }
        #expect(request.future.cancel(token))
        request.success(21)
        #expect(ran.shown == ["kept 21"])
        #expect(mapped.result == nil)
    }
}

@Suite("SimpleFutures app: background work and completion handlers", .hangGuard())
struct HeartRateBackgroundTests {
    @Test func firmwareIsParsedInTheBackground() async throws {
        #expect(try await value(of: firmwareVersion(from: "2.10.1")) == [2, 10, 1])
        let bad = await outcome(of: firmwareVersion(from: "2.x", context: ImmediateContext()))
        #expect(bad.error as? MonitorError == .badFirmware("2.x"))
    }

    @Test func aCompletionHandlerBecomesAFuture() async throws {
        #expect(try await value(of: BatteryService(level: 80).batteryLevel()) == 80)
        let flat = await outcome(of: BatteryService(level: nil).batteryLevel())
        #expect(flat.error as? MonitorError == .poweredOff)
    }

    @Test func andThenAndForEachSeeTheValue() async throws {
        let screen = Screen()
        let level = BatteryService(level: 55).batteryLevel()
            .andThen { level in screen.show("battery \(level)%") }
            .map { level in level < 20 ? "low" : "ok" }
        #expect(try await value(of: level) == "ok")
        #expect(screen.shown == ["battery 55%"])
        let done = Promise<Void>()
        future(7).forEach(context: ImmediateContext()) { value in
            screen.show("seven is \(value)")
            done.success(())
        }
        try await value(of: done.future)
        #expect(screen.shown.last == "seven is 7")
    }
}
