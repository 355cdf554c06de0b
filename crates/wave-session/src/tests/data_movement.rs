//! The data-movement picture's model: which lane each result came from.

use super::{lesson, step_to_line_starting};
use crate::MoveSource;

#[test]
fn a_shuffle_under_divergence_reads_inactive_lanes_and_leaves_the_waiting_ones_alone() {
    let mut s = lesson("butterfly");
    step_to_line_starting(&mut s, "wave_shuffle_xor r5");
    assert_eq!(s.data_movement(), None, "nothing moved yet");
    s.step();
    let moved = s.data_movement().expect("a cross-lane step");
    assert_eq!(moved.code, "wave_shuffle_xor r5, r0, r4");
    assert_eq!(moved.combiner, None);
    let sources: Vec<MoveSource> = moved.lanes.iter().map(|m| m.source.clone()).collect();
    let read = |lane| MoveSource::Lane {
        lane,
        active: false,
    };
    assert_eq!(
        sources,
        vec![
            read(4),
            read(5),
            read(6),
            read(7),
            MoveSource::Idle,
            MoveSource::Idle,
            MoveSource::Idle,
            MoveSource::Idle
        ]
    );
    assert_eq!(moved.lanes[0].result, Some(4));
    assert_eq!(moved.lanes[5].result, None);
    assert_eq!(moved.lanes[6].input, 6, "what lane 6 offered: its lane id");
    assert_eq!(moved.lines()[1], "lane 1 read inactive lane 5 and got 5");
    assert_eq!(moved.lines()[7], "lane 7: inactive, unchanged");
    // The next instruction moves nothing between lanes.
    s.step();
    assert_eq!(s.data_movement(), None);
    // Going back shows the same picture.
    assert!(s.step_back());
    assert_eq!(s.data_movement(), Some(moved));
}

#[test]
fn a_shift_past_the_edge_names_the_missing_lane() {
    let mut s = lesson("shuffles");
    step_to_line_starting(&mut s, "wave_shuffle_up");
    s.step();
    let moved = s.data_movement().expect("a cross-lane step");
    assert_eq!(moved.lanes[0].source, MoveSource::Missing { asked: -2 });
    assert_eq!(moved.lanes[1].source, MoveSource::Missing { asked: -1 });
    assert_eq!(
        moved.lanes[2].source,
        MoveSource::Lane {
            lane: 0,
            active: true
        }
    );
    assert_eq!(
        moved.lines()[0],
        "lane 0 asked for lane -2, which does not exist, and got 0"
    );
}

#[test]
fn a_reduction_combines_the_active_lanes_only() {
    let mut s = lesson("reconverge");
    step_to_line_starting(&mut s, "wave_reduce_add r3");
    s.step();
    let moved = s.data_movement().expect("a cross-lane step");
    assert_eq!(moved.combiner, Some("sum"));
    assert_eq!(moved.lanes[1].source, MoveSource::Lanes(vec![1, 3, 5, 7]));
    assert_eq!(moved.lanes[1].result, Some(4));
    assert_eq!(moved.lanes[0].source, MoveSource::Idle);
    assert_eq!(
        moved.lines()[3],
        "lane 3 combined lanes 1, 3, 5, 7 and got 4"
    );
}
