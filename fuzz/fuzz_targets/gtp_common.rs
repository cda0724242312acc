//! What the two GTP fuzz targets share (included by each with `#[path]`).

/// Whether `line` asks for a board larger than `max` (a `boardsize` whose argument is a
/// number above `max`); such lines are skipped to keep each input fast.
pub fn too_big(line: &str, max: u64) -> bool {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w.eq_ignore_ascii_case("boardsize") {
            return words
                .next()
                .and_then(|n| n.trim_start_matches('+').parse::<u64>().ok())
                .is_some_and(|n| n > max);
        }
    }
    false
}
