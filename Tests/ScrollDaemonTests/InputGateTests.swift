@testable import ScrollDaemon
import ScrollProtocol
import Testing

/// docs/design.md §15's decision, from logind's facts to active or paused, and its log lines.
@Suite struct InputGateTests {
    typealias Session = InputGate.ActiveSession

    @Test func activeOnlyWhileOneOfTheUsersSessionsIsTheSeatsActiveSession() {
        var gate = InputGate(uid: 1000, seat: "seat0")
        #expect(gate.state == .active)
        #expect(gate.setActiveSession(Session(id: "2", uid: 1000, isActive: true)) == nil)
        #expect(gate.state == .active)

        // chvt to another user's VT.
        let away = gate.setActiveSession(Session(id: "3", uid: 1001, isActive: true))
        #expect(away == InputGate.Transition(
            from: .active, to: .paused(.sessionInactive),
            message: "input paused: session_inactive (uid 1001's session 3 is the active session of seat0; every input device is closed)"
        ))
        // The same facts again make no transition (no second log line).
        #expect(gate.setActiveSession(Session(id: "3", uid: 1001, isActive: true)) == nil)

        // Back on the user's VT.
        let back = gate.setActiveSession(Session(id: "2", uid: 1000, isActive: true))
        #expect(back == InputGate.Transition(
            from: .paused(.sessionInactive), to: .active,
            message: "input resumed: this user's session 2 is the active session of seat0 (input devices found anew)"
        ))
    }

    @Test func aSessionOfTheUserThatLogindCallsInactiveOrNoSessionAtAllPauses() {
        var gate = InputGate(uid: 1000, seat: "seat1")
        #expect(gate.setActiveSession(Session(id: "c1", uid: 1000, isActive: false))?.message
            == "input paused: session_inactive (this user's session c1 on seat1 is not active; every input device is closed)")
        #expect(gate.state == .paused(.sessionInactive))
        #expect(gate.setActiveSession(nil) == nil)
        #expect(gate.state == .paused(.sessionInactive))
        #expect(gate.setActiveSession(Session(id: "c1", uid: 1000, isActive: true))?.to == .active)
        #expect(gate.setActiveSession(nil)?.message == "input paused: session_inactive (seat1 has no active session; every input device is closed)")
    }

    @Test func sleepPausesAndWakingResumesWithTheDevicesFoundAnew() {
        var gate = InputGate(uid: 1000, seat: "seat0")
        _ = gate.setActiveSession(Session(id: "2", uid: 1000, isActive: true))
        #expect(gate.setSleeping(true) == InputGate.Transition(
            from: .active, to: .paused(.sleep),
            message: "input paused: sleep (the system is about to sleep; every input device is closed)"
        ))
        #expect(gate.setSleeping(true) == nil)
        #expect(gate.setSleeping(false) == InputGate.Transition(
            from: .paused(.sleep), to: .active,
            message: "input resumed: the system woke up, this user's session 2 is the active session of seat0 (input devices found anew)"
        ))
    }

    @Test func sleepWinsOverTheSessionAndWakingOnAnotherUsersSessionStaysPaused() {
        var gate = InputGate(uid: 1000, seat: "seat0")
        _ = gate.setActiveSession(Session(id: "3", uid: 1001, isActive: true))
        #expect(gate.setSleeping(true)?.to == .paused(.sleep))
        // The session changes during sleep: still sleeping, no transition.
        #expect(gate.setActiveSession(Session(id: "2", uid: 1000, isActive: true)) == nil)
        #expect(gate.setActiveSession(Session(id: "3", uid: 1001, isActive: true)) == nil)
        #expect(gate.setSleeping(false) == InputGate.Transition(
            from: .paused(.sleep), to: .paused(.sessionInactive),
            message: "input paused: session_inactive (the system woke up, but uid 1001's session 3 is the active session of seat0; every input device stays closed)"
        ))
    }
}
