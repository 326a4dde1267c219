import Foundation

/// Prints the table that ends the stories: one row per story.
func printSummary(_ rows: [StoryRow], totalMilliseconds: Int, site: TourSite) {
    chapter("Summary")
    let header = ["story", "requests", "time", "outcome"]
    let table = rows.map { [$0.story, "\($0.requests)", "\($0.milliseconds) ms", $0.outcome] }
    let widths = header.indices.map { column in
        ([header[column]] + table.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { column, cell in
            column == 1 || column == 2
                ? String(repeating: " ", count: widths[column] - cell.count) + cell
                : cell + String(repeating: " ", count: widths[column] - cell.count)
        }.joined(separator: " │ ").trimmingCharacters(in: .whitespaces)
    }
    say(line(header))
    say(widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─"))
    for row in table { say(line(row)) }
    print("")
    say(
        "\(site.server.requestCount) requests served in \(totalMilliseconds) ms; "
            + "\(site.server.abandonedCount) abandoned by the client when their work was cancelled")
}
