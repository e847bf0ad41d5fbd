//! The engine's data files (piece values, levels): a text shipped in the binary, and an
//! environment variable naming another file of the same form to play with instead, so a
//! change is tried without rebuilding.

/// `parse` of the file the environment variable `var` names, when set (a file that does not
/// read or parse is reported once on standard error and the shipped text is used), else of
/// `shipped`; `fallback` should the shipped text ever not parse (a test keeps each parsing).
pub(crate) fn load<T>(
    var: &str,
    shipped: &str,
    parse: fn(&str) -> Result<T, String>,
    fallback: fn() -> T,
) -> T {
    let shipped = || parse(shipped).unwrap_or_else(|_| fallback());
    let Ok(path) = std::env::var(var) else {
        return shipped();
    };
    match std::fs::read_to_string(&path)
        .map_err(|e| format!("{path} does not read: {e}"))
        .and_then(|t| parse(&t).map_err(|e| format!("{path}: {e}")))
    {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{var} ignored: {e}");
            shipped()
        }
    }
}

/// The lines of a data file that say something, each with its number (from 1), its text
/// (without the comment after `#`, trimmed) and its words.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (usize, &str, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(n, raw)| {
        let line = raw.split('#').next().unwrap_or("").trim();
        (!line.is_empty()).then(|| (n + 1, line, line.split_whitespace().collect()))
    })
}
