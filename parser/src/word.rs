//! Bytes of a class (quote, backslash, control character) found eight at a time, by the
//! zero-byte word trick: for the short strings of a log line (JSON params, escaping), cheaper than
//! a vector search set up per string, and than a byte-by-byte loop.

/// Eight bytes of text read as one word: per class of byte, a word with the high bit set in the
/// first byte of that class (and maybe in bytes after it).
pub(crate) struct Word {
    pub quote: u64,
    pub backslash: u64,
    pub control: u64,
}

const ONES: u64 = u64::from_ne_bytes([1; 8]);
const HIGH_BITS: u64 = u64::from_ne_bytes([0x80; 8]);

impl Word {
    fn of(bytes: [u8; 8]) -> Word {
        let word = u64::from_le_bytes(bytes);
        // A zero byte of `x` (the first one exactly) sets the high bit of its byte here.
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH_BITS;
        Word {
            quote: zero(word ^ (ONES * u64::from(b'"'))),
            backslash: zero(word ^ (ONES * u64::from(b'\\'))),
            // A byte below 0x20 (the first one exactly).
            control: word.wrapping_sub(ONES * 0x20) & !word & HIGH_BITS,
        }
    }
}

/// The first byte of `bytes` that `class` marks in its [`Word`], eight bytes at a time (the tail
/// in a padded word).
pub(crate) fn first_byte(bytes: &[u8], class: impl Fn(&Word) -> u64) -> Option<usize> {
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let found = class(&Word::of(chunk));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    // Padded with a byte of no class.
    let mut tail = [b'a'; 8];
    let rest = &bytes[at..];
    tail[..rest.len().min(8)].copy_from_slice(&rest[..rest.len().min(8)]);
    let found = class(&Word::of(tail));
    let n = (found.trailing_zeros() / 8) as usize;
    (found != 0 && n < rest.len()).then_some(at + n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_quote_backslash_or_control_byte_is_found_wherever_it_is() {
        // Bytes next to the classes' bounds, and UTF-8 bytes above 0x7f, which are none of them.
        let filler = [b'x', 0x20, 0xc3, 0xa9, b'!', 0x7f, 0xff, b'#', b'[', b']'];
        let stops = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        for len in 0..40 {
            let base: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
            assert_eq!(
                first_byte(&base, |w| w.quote | w.backslash | w.control),
                None
            );
            for at in 0..len {
                for stop in [b'"', b'\\', 0x1f, 0x00, b'\n'] {
                    let mut bytes = base.clone();
                    bytes[at] = stop;
                    if at + 3 < len {
                        bytes[at + 3] = b'"';
                    }
                    let all = first_byte(&bytes, |w| w.quote | w.backslash | w.control);
                    assert_eq!(all, bytes.iter().position(|&b| stops(b)), "{bytes:?}");
                    let quote = first_byte(&bytes, |w| w.quote);
                    assert_eq!(quote, bytes.iter().position(|&b| b == b'"'), "{bytes:?}");
                }
            }
        }
    }
}
