//! The bytes JSON treats specially inside a string (quote, backslash, control character), found
//! by one bitmask pass: a bit per byte for up to 64 bytes at once, then one stop per set bit.
//! The strings of a log line (JSON params, escaping) stop at a dozen quotes or more; a search
//! started again after each stop (a word at a time, or a vector search set up per string) cost
//! more in its starts and mispredicted exits than in the bytes it looked at.

/// Bytes looked at per mask: one bit each in a `u64`.
const BLOCK: usize = 64;
/// Bytes per vector compare.
const LANE: usize = 16;

/// `"`, `\` or a control character below 0x20: what a JSON string must escape (what the masks
/// find, byte by byte, for the tests).
#[cfg(test)]
fn is_special(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// A bit per byte of the lane `bytes`, set for the special ones: one SSE2 compare of each class
/// (SSE2 is part of every x86-64 CPU).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn sse2_mask(bytes: std::arch::x86_64::__m128i) -> u16 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // A byte is at most 0x1f when the lesser of it and 0x1f is itself.
    let control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1f)), bytes);
    let quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8));
    let backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
    _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u16
}

/// The mask of `lane`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn lane_mask(lane: &[u8; LANE]) -> u16 {
    use std::arch::x86_64::_mm_loadu_si128;
    // SAFETY: `lane` is 16 readable bytes and the load takes any alignment; SSE2 is in the
    // x86-64 baseline: every x86-64 CPU has it.
    unsafe { sse2_mask(_mm_loadu_si128(lane.as_ptr().cast())) }
}

/// The mask of the lane whose bytes are those of the little-endian words `low` and `high`, put
/// together in registers.
#[cfg(target_arch = "x86_64")]
#[inline]
fn words_mask(low: u64, high: u64) -> u16 {
    use std::arch::x86_64::_mm_set_epi64x;
    // SAFETY: SSE2 is in the x86-64 baseline.
    unsafe { sse2_mask(_mm_set_epi64x(high as i64, low as i64)) }
}

/// A bit per byte of the little-endian `word`, set for the special ones, each byte's class found
/// exactly (no carry from one byte into the next), their high bits then gathered by a multiply:
/// the masks on other CPUs.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn word_mask(word: u64) -> u8 {
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    // The high bit of each byte of `x` that is zero.
    let zero = |x: u64| !(((x & LOW7) + LOW7) | x) & HIGH;
    // Below 0x20: no high bit, and its low seven bits plus 0x60 stay below 0x80.
    let control = !(((word & LOW7) + ONES * 0x60) | word) & HIGH;
    let special =
        zero(word ^ (ONES * u64::from(b'"'))) | zero(word ^ (ONES * u64::from(b'\\'))) | control;
    // The high bit of byte k moved to bit k of the top byte.
    ((special >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

#[cfg(any(test, not(target_arch = "x86_64")))]
fn word_words_mask(low: u64, high: u64) -> u16 {
    u16::from(word_mask(low)) | (u16::from(word_mask(high)) << 8)
}

#[cfg(any(test, not(target_arch = "x86_64")))]
fn word_lane_mask(lane: &[u8; LANE]) -> u16 {
    let (low, high) = lane.split_at(8);
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
    word_words_mask(word(low), word(high))
}

#[cfg(not(target_arch = "x86_64"))]
fn lane_mask(lane: &[u8; LANE]) -> u16 {
    word_lane_mask(lane)
}

#[cfg(not(target_arch = "x86_64"))]
fn words_mask(low: u64, high: u64) -> u16 {
    word_words_mask(low, high)
}

/// The mask of `bytes[at..]`'s first `BLOCK` bytes (fewer at the end).
#[inline]
fn mask_at(bytes: &[u8], at: usize) -> u64 {
    let rest = &bytes[at..];
    let (lanes, tail) = rest[..rest.len().min(BLOCK)].as_chunks::<LANE>();
    let mut mask = 0u64;
    for (n, lane) in lanes.iter().enumerate() {
        mask |= u64::from(lane_mask(lane)) << (LANE * n);
    }
    if !tail.is_empty() {
        // The text's last lane, moved down to drop the bytes before the tail.
        let last = match bytes.last_chunk::<LANE>() {
            Some(last) => u64::from(lane_mask(last) >> (LANE - tail.len())),
            // A text shorter than a lane (most names and values): its bytes in a lane of
            // spaces, which are not special, rather than a test per byte.
            None => {
                let (low, high) = short_words(tail);
                u64::from(words_mask(low, high))
            }
        };
        mask |= last << (LANE * lanes.len());
    }
    mask
}

/// `tail` (shorter than a lane) as the two little-endian words of a lane of spaces, read with
/// overlapping loads and put together in registers: no call to `memcpy` for a slice, and no
/// lane stored a piece at a time and then loaded whole, a load that waits for the stores.
fn short_words(tail: &[u8]) -> (u64, u64) {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    // The low `len` bytes of `word`, then spaces.
    let padded = |word: u64, len: usize| match len {
        8.. => word,
        _ => (word & ((1 << (8 * len)) - 1)) | (SPACES << (8 * len)),
    };
    let n = tail.len();
    if let (Some(first), Some(last)) = (tail.first_chunk::<8>(), tail.last_chunk::<8>()) {
        // The last word holds `tail[n - 8..]`: its top `n - 8` bytes are those past the first.
        let high = u64::from_le_bytes(*last).checked_shr(8 * (16 - n) as u32);
        (u64::from_le_bytes(*first), padded(high.unwrap_or(0), n - 8))
    } else if let (Some(first), Some(last)) = (tail.first_chunk::<4>(), tail.last_chunk::<4>()) {
        let word = u64::from(u32::from_le_bytes(*first))
            | (u64::from(u32::from_le_bytes(*last)) << (8 * (n - 4)));
        (padded(word, n), SPACES)
    } else {
        // One to three bytes: the first, the middle and the last cover them.
        let byte = |i: usize| tail.get(i).map_or(0, |&b| u64::from(b) << (8 * i));
        let word = byte(0) | byte(n / 2) | byte(n.saturating_sub(1));
        (padded(word, n), SPACES)
    }
}

/// Whether `a` and `b` are the same bytes, compared in line: the keys and literals compared
/// per record are a few bytes, and `==` on slices calls `memcmp` for each.
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// The positions of the special bytes of a text, in order.
pub(crate) struct Specials<'a> {
    bytes: &'a [u8],
    /// Where the block of `mask` starts.
    block: usize,
    /// The special bytes of the block not handed out yet.
    mask: u64,
}

impl<'a> Specials<'a> {
    pub fn new(bytes: &'a [u8]) -> Specials<'a> {
        Specials {
            bytes,
            block: 0,
            mask: mask_at(bytes, 0),
        }
    }
}

impl Iterator for Specials<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.block += BLOCK;
            if self.block >= self.bytes.len() {
                return None;
            }
            self.mask = mask_at(self.bytes, self.block);
        }
        let at = self.block + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_byte(bytes: &[u8]) -> Vec<usize> {
        (0..bytes.len()).filter(|&n| is_special(bytes[n])).collect()
    }

    #[test]
    fn every_quote_backslash_and_control_byte_is_found_wherever_it_is() {
        // Bytes next to the classes' bounds, and UTF-8 bytes above 0x7f, which are none of them.
        let filler = [
            b'x', 0x20, 0xc3, 0xa9, b'!', 0x7f, 0xff, b'#', b'[', b']', b'!', 0x21,
        ];
        // Lengths around one, two and three blocks, every position of one to three stops, seen
        // from every start.
        for len in (0..70).chain(120..135).chain(186..194) {
            let base: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
            assert_eq!(Specials::new(&base).next(), None);
            for at in 0..len {
                for stop in [b'"', b'\\', 0x1f, 0x00, b'\n'] {
                    let mut bytes = base.clone();
                    bytes[at] = stop;
                    for also in [3, 61] {
                        if at + also < len {
                            bytes[at + also] = b'"';
                        }
                    }
                    for from in [0, at / 2, at] {
                        let found: Vec<usize> = Specials::new(&bytes[from..]).collect();
                        assert_eq!(found, by_byte(&bytes[from..]), "{from} {bytes:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_short_text_is_the_low_bytes_of_a_lane_of_spaces() {
        let text: Vec<u8> = (1..=16).collect();
        for len in 0..LANE {
            let mut lane = [b' '; LANE];
            lane[..len].copy_from_slice(&text[..len]);
            let (low, high) = lane.split_at(8);
            let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap());
            assert_eq!(short_words(&text[..len]), (word(low), word(high)), "{len}");
        }
    }

    #[test]
    fn each_byte_value_is_classed_by_every_mask() {
        for byte in 0..=255u8 {
            for n in 0..LANE {
                let mut lane = [b'a'; LANE];
                lane[n] = byte;
                let expected = u16::from(is_special(byte)) << n;
                assert_eq!(lane_mask(&lane), expected, "{byte:#x} at {n}");
                assert_eq!(word_lane_mask(&lane), expected, "{byte:#x} at {n}");
            }
        }
    }
}
