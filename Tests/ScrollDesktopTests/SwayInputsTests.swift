import ScrollDesktop
import Testing

/// sway's `GET_INPUTS` reply as sway-ipc(7) documents it (docs/design.md §23).
@Suite struct SwayInputsTests {
    /// Shaped as sway 1.7 answers `swaymsg -t get_inputs -r` (sway-ipc(7), GET_INPUTS).
    static let reply = #"""
        [
          {"identifier":"1:1:AT_Translated_Set_2_keyboard","name":"AT Translated Set 2 keyboard","vendor":1,"product":1,"type":"keyboard","xkb_active_layout_name":"English (US)","libinput":{"send_events":"enabled"}},
          {"identifier":"1267:12410:ELAN1300:00_04F3:3087_Touchpad","name":"ELAN1300:00 04F3:3087 Touchpad","vendor":1267,"product":12410,"type":"touchpad","scroll_factor":1.000000,"libinput":{"send_events":"enabled","tap":"enabled","natural_scroll":"enabled","scroll_method":"two_finger"}},
          {"identifier":"1133:16505:Logitech_G_Pro","name":"Logitech G Pro","vendor":1133,"product":16505,"type":"pointer","scroll_factor":1.500000,"libinput":{"send_events":"enabled","natural_scroll":"disabled","accel_profile":"adaptive"}},
          {"identifier":"2:10:TPPS/2_Elan_TrackPoint","name":"TPPS/2 Elan TrackPoint","vendor":2,"product":10,"type":"pointer","scroll_factor":1.500000,"libinput":{"natural_scroll":"disabled"}}
        ]
        """#

    @Test func touchpadsAndPointersGiveRulesByNameAndTheirTypeWhenAllAgree() throws {
        let settings = try SwayInputs.settings(getInputsReply: Array(Self.reply.utf8))
        #expect(settings.desktop == .sway)
        #expect(settings.naturalScrolling == [
            .device(name: "ELAN1300:00 04F3:3087 Touchpad", vendor: 1267, product: 12410): true,
            .device(name: "Logitech G Pro", vendor: 1133, product: 16505): false,
            .device(name: "TPPS/2 Elan TrackPoint", vendor: 2, product: 10): false,
            .touchpads: true,
            .mice: false,
        ])
        #expect(settings.scrollFactor == [
            .device(name: "ELAN1300:00 04F3:3087 Touchpad", vendor: 1267, product: 12410): 1,
            .device(name: "Logitech G Pro", vendor: 1133, product: 16505): 1.5,
            .device(name: "TPPS/2 Elan TrackPoint", vendor: 2, product: 10): 1.5,
            .touchpads: 1,
            .mice: 1.5,
        ])
    }

    @Test func aTypeWhoseInputsDisagreeGetsNoClassValue() throws {
        let reply = #"[{"name":"A","type":"pointer","scroll_factor":1,"libinput":{"natural_scroll":"enabled"}},{"name":"B","type":"pointer","scroll_factor":2,"libinput":{"natural_scroll":"disabled"}}]"#
        let settings = try SwayInputs.settings(getInputsReply: Array(reply.utf8))
        #expect(settings.naturalScrolling[.mice] == nil)
        #expect(settings.scrollFactor[.mice] == nil)
        #expect(settings.naturalScrolling[.device(name: "A", vendor: nil, product: nil)] == true)
    }

    @Test func aReplyThatIsNotAnArrayIsRefused() {
        #expect(throws: (any Error).self) { try SwayInputs.settings(getInputsReply: Array(#"{"success":false}"#.utf8)) }
        #expect(throws: (any Error).self) { try SwayInputs.settings(getInputsReply: Array("[".utf8)) }
    }

    @Test func identifiersAreMangledAsSwayDoes() {
        #expect(SwayInputs.identifier(vendor: 1267, product: 12410, name: " ELAN1300:00 04F3:3087 Touchpad ") == "1267:12410:ELAN1300:00_04F3:3087_Touchpad")
        #expect(SwayInputs.identifier(vendor: 2, product: 10, name: "TPPS/2\u{1}Elan") == "2:10:TPPS/2_Elan")
    }

    @Test func framingIsI3IPCLittleEndian() {
        let message = SwayIPC.message(SwayIPC.subscribe, #"["input"]"#)
        #expect(Array(message.prefix(14)) == Array("i3-ipc".utf8) + [9, 0, 0, 0, 2, 0, 0, 0])
        #expect(SwayIPC.header(Array(message.prefix(14)))! == (9, 2))
        #expect(SwayIPC.header(Array("i3-ipX".utf8) + [0, 0, 0, 0, 0, 0, 0, 0]) == nil)
    }
}
