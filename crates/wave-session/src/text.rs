//! Lanes in words, shared by every view that names lanes (captions, events, the stack, the
//! timeline, the quiz).

/// Lanes of `mask` as "0-2, 5, 7" (or "none").
pub(crate) fn lanes_text(mask: u64, width: u32) -> String {
    let mut parts = Vec::new();
    let mut lane = 0;
    while lane < width {
        if mask >> lane & 1 == 1 {
            let start = lane;
            while lane + 1 < width && mask >> (lane + 1) & 1 == 1 {
                lane += 1;
            }
            parts.push(if start == lane {
                start.to_string()
            } else {
                format!("{start}-{lane}")
            });
        }
        lane += 1;
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

/// "lane 3", "lanes 0-2, 5" or "no lane".
pub fn lanes_phrase(mask: u64, width: u32) -> String {
    match mask.count_ones() {
        0 => "no lane".to_string(),
        1 => format!("lane {}", mask.trailing_zeros()),
        _ => format!("lanes {}", lanes_text(mask, width)),
    }
}
