use super::session;
use crate::{ConfigForm, ElemType, Field, RegionField, RegionForm, RegionKind, RunState};

const KERNEL: &str = ".kernel k\n.registers 8\n    halt\n.end\n.kernel other\n    halt\n.end\n";

fn errors_for(form: ConfigForm) -> Vec<(Field, String)> {
    let mut s = session(KERNEL, 1, 1);
    s.set_form(form);
    s.form_errors().fields.clone()
}

#[test]
fn every_invalid_field_gets_its_own_message() {
    let form = ConfigForm {
        kernel: "missing".to_string(),
        grid: "2,0".to_string(),
        workgroup: "a,b".to_string(),
        wave_width: "65".to_string(),
        initial_registers: "r3=7, x4=1".to_string(),
        device_memory: "1G".to_string(),
        local_memory: "".to_string(),
        max_instructions: "-5".to_string(),
        ..ConfigForm::default()
    };
    let errors = errors_for(form);
    let get = |f: Field| {
        errors
            .iter()
            .find(|(field, _)| *field == f)
            .map(|(_, m)| m.as_str())
    };
    assert_eq!(get(Field::Grid), Some("every size must be at least 1"));
    assert_eq!(
        get(Field::Workgroup),
        Some("x: `a` is not a whole number (decimal or 0x hex)")
    );
    assert_eq!(
        get(Field::WaveWidth),
        Some("the wave width must be 1 to 64, not 65")
    );
    assert_eq!(
        get(Field::InitialRegisters),
        Some("`x4` is not a register (r0 to r254)")
    );
    assert_eq!(
        get(Field::DeviceMemory),
        Some("`1G` is not a whole number (decimal or 0x hex)")
    );
    assert_eq!(
        get(Field::LocalMemory),
        Some("expected a number, found nothing")
    );
    assert_eq!(
        get(Field::MaxInstructions),
        Some("`-5` must not be negative")
    );
    assert_eq!(
        get(Field::Kernel),
        Some("the file has no kernel named `missing`")
    );
}

#[test]
fn nothing_runs_with_an_invalid_field_and_fixing_it_runs_again() {
    let mut s = session(KERNEL, 1, 1);
    let mut form = s.form().clone();
    form.wave_width = "0".to_string();
    s.set_form(form.clone());
    assert_eq!(s.state(), &RunState::ConfigErrors);
    assert!(!s.step());
    assert!(s.launch().is_none());
    form.wave_width = "16".to_string();
    s.set_form(form);
    assert!(s.form_errors().is_empty());
    assert_eq!(s.state(), &RunState::Ready);
    assert_eq!(s.launch().unwrap().config.wave_width, 16);
}

#[test]
fn good_fields_parse_into_the_launch_configuration() {
    let mut s = session(KERNEL, 1, 1);
    let form = ConfigForm {
        kernel: "other".to_string(),
        grid: "4x2".to_string(),
        workgroup: "8 4 2".to_string(),
        wave_width: "0x10".to_string(),
        initial_registers: "r3=7, r4=0x10 r5=-2".to_string(),
        device_memory: "64K".to_string(),
        local_memory: "1_024".to_string(),
        max_instructions: "0".to_string(),
        regions: Vec::new(),
        reference_behaviour: true,
    };
    s.set_form(form);
    assert!(s.form_errors().is_empty(), "{:?}", s.form_errors());
    let launch = s.launch().unwrap();
    assert_eq!(launch.kernel, "other");
    assert_eq!(
        s.machine().map(|m| m.behaviour()),
        Some(wave_engine::machine::Behaviour::WaveEmu),
        "the reference behaviour reaches the machine"
    );
    assert_eq!(launch.config.grid, [4, 2, 1]);
    assert_eq!(launch.config.workgroup, [8, 4, 2]);
    assert_eq!(launch.config.wave_width, 16);
    assert_eq!(
        launch.config.initial_registers,
        vec![(3, 7), (4, 16), (5, (-2i32) as u32)]
    );
    assert_eq!(launch.config.device_memory, 65536);
    assert_eq!(launch.config.local_memory, 1024);
    assert_eq!(launch.device_memory.len(), 65536);
    assert_eq!(s.workgroup_count(), 8);
}

#[test]
fn a_register_beyond_the_kernels_register_file_is_reported_on_that_field() {
    let errors = errors_for(ConfigForm {
        initial_registers: "r40=1".to_string(),
        ..ConfigForm::default()
    });
    assert_eq!(
        errors,
        vec![(
            Field::InitialRegisters,
            "initial register r40 does not exist: the kernel has 8 registers".to_string()
        )]
    );
}

#[test]
fn workgroup_size_directive_override_is_visible() {
    let mut s = session(
        ".kernel k\n.workgroup_size 4, 2, 1\n    halt\n.end\n",
        32,
        32,
    );
    assert_eq!(s.workgroup_override(), Some([4, 2, 1]));
    s.reset();
    assert_eq!(s.machine().unwrap().launch().workgroup, [4, 2, 1]);
    assert!(s.machine().unwrap().launch().workgroup_from_kernel);
    let plain = session(KERNEL, 1, 1);
    assert_eq!(plain.workgroup_override(), None);
}

fn region(kind: RegionKind, elem: ElemType, offset: &str) -> RegionForm {
    RegionForm::new(kind, elem, offset)
}

#[test]
fn memory_regions_fill_the_initial_device_memory() {
    let mut s = session(KERNEL, 1, 1);
    let mut iota = region(RegionKind::Iota, ElemType::I32, "0");
    iota.count = "4".to_string();
    iota.start = "-1".to_string();
    iota.step = "2".to_string();
    let mut floats = region(RegionKind::Literal, ElemType::F32, "16");
    floats.values = "1.5, -2 0x3f800000".to_string();
    let mut random = region(RegionKind::Random, ElemType::U32, "0x20");
    random.count = "64".to_string();
    random.seed = "7".to_string();
    random.low = "10".to_string();
    random.high = "12".to_string();
    let mut zeros = region(RegionKind::Zeros, ElemType::U32, "4");
    zeros.count = "1".to_string();
    s.set_form(ConfigForm {
        device_memory: "512".to_string(),
        regions: vec![iota, floats, random, zeros],
        ..ConfigForm::default()
    });
    assert!(s.form_errors().is_empty(), "{:?}", s.form_errors());
    let memory = &s.launch().unwrap().device_memory;
    let word = |i: usize| u32::from_le_bytes(memory[i * 4..i * 4 + 4].try_into().unwrap());
    assert_eq!(word(0), (-1i32) as u32);
    assert_eq!(word(1), 0, "the zeros region came later and overwrote 1");
    assert_eq!([word(2), word(3)], [3, 5]);
    assert_eq!(word(4), 1.5f32.to_bits());
    assert_eq!(word(5), (-2.0f32).to_bits());
    assert_eq!(word(6), 1.0f32.to_bits());
    let randoms: Vec<u32> = (8..72).map(word).collect();
    assert!(randoms.iter().all(|v| (10..=12).contains(v)));
    assert!(randoms.contains(&10) && randoms.contains(&12));
    // Seeded: the same form gives the same data; the machine starts with it.
    let again = s.launch().unwrap().device_memory.clone();
    s.reset();
    assert_eq!(s.machine().unwrap().device().bytes(), &again[..]);
}

#[test]
fn region_errors_point_at_the_bad_field() {
    let mut past_end = region(RegionKind::Zeros, ElemType::U32, "1020");
    past_end.count = "2".to_string();
    let mut bad_value = region(RegionKind::Literal, ElemType::I32, "0");
    bad_value.values = "1, 2, three".to_string();
    let mut bad_range = region(RegionKind::Random, ElemType::F32, "0");
    bad_range.low = "1".to_string();
    bad_range.high = "0.5".to_string();
    let errors = errors_for(ConfigForm {
        device_memory: "1024".to_string(),
        regions: vec![past_end, bad_value, bad_range],
        ..ConfigForm::default()
    });
    assert_eq!(
        errors,
        vec![
            (
                Field::Region(1, RegionField::Values),
                "`three` is not an i32".to_string()
            ),
            (
                Field::Region(2, RegionField::High),
                "the high bound must not be below the low bound".to_string()
            ),
            (
                Field::Region(0, RegionField::Offset),
                "8 bytes at offset 1020 end at 1028, past the device memory (1024 bytes)"
                    .to_string()
            ),
        ]
    );
}

#[test]
fn random_regions_keep_their_values_from_earlier_versions() {
    // Share links and autosaves carry only the seed: the same seed must give the same data in
    // every version, so these words were recorded once and must never change.
    let mut s = session(KERNEL, 1, 1);
    let mut unsigned = region(RegionKind::Random, ElemType::U32, "0");
    unsigned.count = "4".to_string();
    unsigned.seed = "1".to_string();
    unsigned.low = "0".to_string();
    unsigned.high = "0xFFFFFFFF".to_string();
    let mut signed = region(RegionKind::Random, ElemType::I32, "16");
    signed.count = "4".to_string();
    signed.seed = "2".to_string();
    signed.low = "-100".to_string();
    signed.high = "100".to_string();
    let mut floats = region(RegionKind::Random, ElemType::F32, "32");
    floats.count = "4".to_string();
    floats.seed = "4294967295".to_string();
    floats.low = "-1".to_string();
    floats.high = "1".to_string();
    s.set_form(ConfigForm {
        device_memory: "48".to_string(),
        regions: vec![unsigned, signed, floats],
        ..ConfigForm::default()
    });
    assert!(s.form_errors().is_empty(), "{:?}", s.form_errors());
    let memory = &s.launch().unwrap().device_memory;
    let words: Vec<u32> = memory
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        words[0..4],
        [0x8902_5CC1, 0x658E_EC67, 0xFB32_555E, 0xEE42_C90B]
    );
    assert_eq!(
        words[4..8].iter().map(|&w| w as i32).collect::<Vec<_>>(),
        [21, -47, -55, -67]
    );
    assert_eq!(
        words[8..12],
        [0xBDC4_EC50, 0xBE76_FDE8, 0x3F5C_9592, 0xBF5A_1624]
    );
}
