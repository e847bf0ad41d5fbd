//! Reading a protocol's input line by line with a bound on each line, so that no peer can
//! make a front end hold an endless line in memory, and a line that is not text is answered
//! instead of ending the session.

use std::io::{self, BufRead, Read};

/// The longest line a protocol reads (a UCI `position ... moves` line of a long game fits).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line that is not UTF-8 text.
    NotText,
    /// A line longer than [`MAX_LINE_BYTES`] (read and dropped).
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next line of `input`.
pub fn next_line<R: BufRead>(input: &mut R) -> io::Result<Line> {
    let mut bytes = Vec::new();
    let n = <&mut R as Read>::take(&mut *input, MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if bytes.len() > MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
        // Drop the rest of the line.
        loop {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    input.consume(i + 1);
                    break;
                }
                None => {
                    let len = buf.len();
                    input.consume(len);
                }
            }
        }
        return Ok(Line::TooLong);
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotText,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_checked() {
        let mut long = vec![b'x'; MAX_LINE_BYTES + 10];
        long.extend_from_slice(b"\nisready\r\n\xff\xfe\nlast");
        let mut input = io::Cursor::new(long);
        assert_eq!(next_line(&mut input).ok(), Some(Line::TooLong));
        assert_eq!(
            next_line(&mut input).ok(),
            Some(Line::Text("isready".into()))
        );
        assert_eq!(next_line(&mut input).ok(), Some(Line::NotText));
        assert_eq!(next_line(&mut input).ok(), Some(Line::Text("last".into())));
        assert_eq!(next_line(&mut input).ok(), Some(Line::End));
    }
}
