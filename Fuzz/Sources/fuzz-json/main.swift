// The JSON layer: whatever jansson accepts must survive serialize → parse unchanged, and
// serializing the result again must give the same text (reals at 17 digits, which
// round-trip every double).
import FuzzSupport
import JSONCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let value = try? JSON.parse(Fuzzer.bytes(data, size)) else { return 0 }
    let text = value.serialized(realPrecision: 17)
    let again: JSON
    do {
        again = try JSON.parse(text)
    } catch {
        fatalError("serialized text does not parse: \(error): \(String(decoding: text.prefix(200), as: UTF8.self))")
    }
    Fuzzer.require(again == value, "the round trip changed the value: \(String(decoding: text.prefix(200), as: UTF8.self))")
    Fuzzer.require(again.serialized(realPrecision: 17) == text, "serializing the round trip gave other text")
    // The service's own precision (15 digits) must parse too, except next to the largest
    // double (documented in `serialized(realPrecision:)`).
    _ = value.serialized()
    return 0
}

Fuzzer.run(fuzzJSON)
