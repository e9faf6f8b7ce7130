//! What the integration tests share.

/// The order of the contract's confidence words.
pub fn rank(confidence: &str) -> u8 {
    match confidence {
        "possible" => 1,
        "likely" => 2,
        "confirmed" => 3,
        other => panic!("unknown confidence {other}"),
    }
}
