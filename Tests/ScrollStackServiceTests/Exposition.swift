import Foundation

/// A Prometheus text exposition (format 0.0.4) parsed strictly: every line is a `# HELP`, a
/// `# TYPE` or a sample `name{label="value",…} number`; anything else throws, naming the line.
/// Every sample must belong to a family whose `# TYPE` came before it (histograms own their
/// `_bucket`, `_sum` and `_count` samples).
struct Exposition {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var types: [String: String] = [:]
    private(set) var samples: [Sample] = []

    init(_ text: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            func fail(_ why: String) -> FormatError { FormatError(description: "line \(number + 1) \(why): \(line)") }
            if line.isEmpty { continue }
            if line.hasPrefix("# TYPE ") {
                let words = line.split(separator: " ")
                guard words.count == 4, Self.isName(words[2]),
                      ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3]) else { throw fail("is a bad TYPE line") }
                guard types[String(words[2])] == nil else { throw fail("repeats a TYPE") }
                types[String(words[2])] = String(words[3])
                continue
            }
            if line.hasPrefix("# HELP ") || line.hasPrefix("#") { continue }
            var rest = Substring(line)
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
            guard Self.isName(name) else { throw fail("has no metric name") }
            rest = rest.dropFirst(name.count)
            var labels: [String: String] = [:]
            if rest.first == "{" {
                rest = rest.dropFirst()
                while rest.first != "}" {
                    let label = rest.prefix { $0 != "=" }
                    guard Self.isName(label), labels[String(label)] == nil else { throw fail("has a bad label name") }
                    rest = rest.dropFirst(label.count)
                    guard rest.hasPrefix("=\"") else { throw fail("has a label without a quoted value") }
                    rest = rest.dropFirst(2)
                    var value = ""
                    while let character = rest.first, character != "\"" {
                        rest = rest.dropFirst()
                        if character == "\\" {
                            guard let escaped = rest.first, "\\\"n".contains(escaped) else { throw fail("has a bad escape") }
                            value.append(escaped == "n" ? "\n" : escaped)
                            rest = rest.dropFirst()
                        } else {
                            value.append(character)
                        }
                    }
                    guard rest.first == "\"" else { throw fail("has an unterminated label value") }
                    rest = rest.dropFirst()
                    labels[String(label)] = value
                    if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { throw fail("has bad label separators") }
                }
                rest = rest.dropFirst()
            }
            guard rest.first == " ", let value = Self.number(rest.dropFirst()) else { throw fail("has no number") }
            let family = types[String(name)] != nil ? String(name)
                : ["_bucket", "_sum", "_count"].compactMap { suffix in name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : nil }
                    .first { types[$0] == "histogram" }
            guard family != nil else { throw fail("has no TYPE before it") }
            samples.append(Sample(name: String(name), labels: labels, value: value))
        }
    }

    /// The value of the one sample named `name` whose labels include `labels`; nil if none,
    /// and a failure if several match.
    func value(_ name: String, _ labels: [String: String] = [:]) throws -> Double? {
        let matching = samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
        guard matching.count <= 1 else { throw FormatError(description: "\(matching.count) samples of \(name) match \(labels)") }
        return matching.first?.value
    }

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    private static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }
}
