import JSONCodec
import ScrollStackCore

/// The compact, versioned encoding of a stack's snapshot (journal format 2).
///
///     "SSNP" version:u8   (version 2)
///     settings: varint length + the settings as the API writes them (JSON, 17 digits)
///     rows: varint count, then each row (`SnapshotFormat+Rows.swift`)
///
/// The settings are few and change with features, so they keep the API's JSON and its
/// decoder; the rows, O(n), are binary: strings with their lengths, numbers as their 8 bytes
/// (exact), optional members behind presence bits. Decoding is one pass with no JSON, and
/// the stack is built from the rows in O(n) as they are read (`ScrollStackBuilder`), rows
/// with only an id, a content, a size and the hidden flag without a `Row` value each.
///
/// Snapshots of format 1 (the API's JSON of the whole stack, written before this format)
/// start with `{` and are still read (`StackService.rebuild`); they are never rewritten.
enum SnapshotFormat {
    static let magic: [UInt8] = Array("SSNP".utf8)
    static let version: UInt8 = 2

    /// Whether `snapshot` is in this format (any version); otherwise it is format 1 JSON.
    static func isBinary(_ snapshot: [UInt8]) -> Bool {
        snapshot.starts(with: magic)
    }

    /// - Complexity: O(size of the stack).
    static func encode(_ stack: ScrollStack) -> [UInt8] {
        let settings = JSON.object(JSONObject(ModelEncoding.settings(stack.settings))).serialized(realPrecision: 17)
        var writer = ByteWriter(capacity: 64 + settings.count + stack.count * 48)
        writer.bytes(magic)
        writer.byte(version)
        writer.varint(settings.count)
        writer.bytes(settings)
        writer.varint(stack.count)
        stack.forEachRowElement { encode($0, into: &writer) }
        return writer.bytes
    }

    /// The stack `snapshot` holds, measured by `measurer` and `titleMeasurer` (the
    /// service's); `what` names it in errors.
    ///
    /// - Throws: `journalUnreadable` for a newer version, damaged bytes, or a state the
    ///   model refuses.
    /// - Complexity: O(size of the snapshot).
    static func decode(_ snapshot: [UInt8], what: String, measurer: any ContentMeasuring,
                       titleMeasurer: (any TitleMeasuring)?) throws(APIError) -> ScrollStack {
        try snapshot.withUnsafeBytes { buffer in
            Result { () throws(APIError) in try decode(buffer, what: what, measurer: measurer, titleMeasurer: titleMeasurer) }
        }.get()
    }

    private static func decode(_ buffer: UnsafeRawBufferPointer, what: String, measurer: any ContentMeasuring,
                               titleMeasurer: (any TitleMeasuring)?) throws(APIError) -> ScrollStack {
        var reader = ByteReader(buffer, from: magic.count, what: what)
        let version = try reader.byte()
        guard version == Self.version else {
            throw .journalUnreadable("\(what) is in snapshot format \(version); this server reads formats 1 and \(Self.version)")
        }
        let settingsBytes = try reader.bytes(try reader.varint())
        let settingsJSON: JSON
        do { settingsJSON = try JSON.parse(settingsBytes) } catch { throw reader.damaged("its settings do not parse: \(error)") }
        guard let object = settingsJSON.objectValue else { throw reader.damaged("its settings are not an object") }
        let settings: StackSettings
        do { settings = try ModelDecoding.settings(ObjectReader(object: object, path: "settings"), base: StackSettings()) } catch {
            throw reader.damaged("its settings are refused: \(error.message)")
        }
        let count = try reader.varint()
        guard count <= buffer.count else { throw reader.damaged("it claims \(count) rows") }
        // Rows go into the stack's columns as they are read, with no array of rows between.
        let refused = { (error: StackError) in APIError.journalUnreadable("\(what) holds a state the model refuses: \(error)") }
        var builder: ScrollStackBuilder
        do { builder = try ScrollStackBuilder(settings: settings, measurer: measurer, titleMeasurer: titleMeasurer, capacity: count) } catch {
            throw refused(error)
        }
        for _ in 0..<count { try appendRow(&reader, to: &builder, refused: refused) }
        guard reader.isAtEnd else { throw reader.damaged("bytes follow the last row") }
        do { return try builder.build() } catch { throw refused(error) }
    }
}
