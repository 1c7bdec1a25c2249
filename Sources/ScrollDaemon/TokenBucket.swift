import NIOCore

/// A token bucket: up to `rate` tokens, refilled at `rate` a second; an action that takes one
/// goes at once while the bucket has one. (`DaemonCore.statusChanged`: `STATUS=` messages.)
struct TokenBucket {
    let rate: Double
    private var tokens: Double
    private var time = NIODeadline.uptimeNanoseconds(0)

    init(rate: Double) {
        self.rate = rate
        tokens = rate
    }

    /// Takes a token at `now` if there is one; otherwise how long until there is (a
    /// millisecond at least, so rounding can never leave a wake-up that finds it still empty).
    mutating func take(at now: NIODeadline) -> TimeAmount? {
        refill(at: now)
        guard tokens >= 1 else {
            return .nanoseconds(Int64(max(1e6, ((1 - tokens) / rate * 1e9).rounded(.up))))
        }
        tokens -= 1
        return nil
    }

    /// Takes a token at `now` whether or not there is one (the wait `take` named is over).
    mutating func force(at now: NIODeadline) {
        refill(at: now)
        tokens -= 1
    }

    private mutating func refill(at now: NIODeadline) {
        tokens = min(rate, tokens + Double((now - time).nanoseconds) / 1e9 * rate)
        time = now
    }
}
