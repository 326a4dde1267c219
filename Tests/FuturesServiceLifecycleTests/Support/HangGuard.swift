import Foundation
import Testing

/// Whether this run is under a sanitizer (CI sets `FUTURES_SANITIZED=1` for its ThreadSanitizer and
/// AddressSanitizer runs), where everything is several times slower.
let sanitizedRun = ProcessInfo.processInfo.environment["FUTURES_SANITIZED"] == "1"

extension Trait where Self == TimeLimitTrait {
    /// The guard against a hang: 10 minutes (or `minutes`, if longer) in a plain run, 30 under a sanitizer.
    /// It catches a future that never completes; it is not a timing goal.
    static func hangGuard(minutes: Int = 10) -> Self {
        .timeLimit(.minutes(sanitizedRun ? max(30, minutes) : max(10, minutes)))
    }
}
