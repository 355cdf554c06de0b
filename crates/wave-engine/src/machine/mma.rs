//! 4x4x4 f32 matrix ops. Each active lane does the whole tile itself, with three fragment stores
//! of its own (A, B and C), each keyed by fragment id (a register number), reading and writing
//! local memory.

use super::lanes::{each_lane, src_a, src_b};
use super::memory::Memory;
use super::memory_ops::LaneFault;
use super::trap::{MemorySpace, TrapKind};
use super::wave::{Fragment, FragmentStore, Wave};
use crate::instr::{Instr, Op};

type Tile = [f32; 16];

fn fragment(wave: &Wave, store: FragmentStore, id: u8, lane: usize) -> Tile {
    wave.fragments
        .iter()
        .find(|f| f.store == store && f.id == id && f.lane as usize == lane)
        .map(|f| f.tile)
        .unwrap_or([0.0; 16])
}

fn set_fragment(wave: &mut Wave, store: FragmentStore, id: u8, lane: usize, tile: Tile) {
    match wave
        .fragments
        .iter_mut()
        .find(|f| f.store == store && f.id == id && f.lane as usize == lane)
    {
        Some(slot) => slot.tile = tile,
        None => wave.fragments.push(Fragment {
            store,
            id,
            lane: lane as u32,
            tile,
        }),
    }
}

fn element_address(base: u32, stride: u32, index: usize) -> u32 {
    let (row, col) = ((index / 4) as u32, (index % 4) as u32);
    base.wrapping_add(row.wrapping_mul(stride))
        .wrapping_add(col * 4)
}

fn oob(lane: usize, address: u32) -> LaneFault {
    LaneFault {
        kind: TrapKind::MemoryOutOfBounds {
            space: MemorySpace::Local,
            address,
            width: 4,
        },
        lane: lane as u32,
    }
}

pub(super) fn exec(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    local: &mut Memory,
) -> Result<(), LaneFault> {
    match instr.op {
        Op::MmaLoadA | Op::MmaLoadB => {
            let store = if instr.op == Op::MmaLoadA {
                FragmentStore::A
            } else {
                FragmentStore::B
            };
            let bases = src_a(wave, instr);
            let strides = src_b(wave, instr);
            for lane in each_lane(mask) {
                let mut tile = [0.0f32; 16];
                for (index, value) in tile.iter_mut().enumerate() {
                    let address = element_address(bases[lane], strides[lane], index);
                    *value =
                        f32::from_bits(local.read_u32(address).map_err(|_| oob(lane, address))?);
                }
                set_fragment(wave, store, instr.dst, lane, tile);
            }
        }
        Op::MmaStoreC => {
            let bases = src_a(wave, instr);
            let strides = src_b(wave, instr);
            for lane in each_lane(mask) {
                let tile = fragment(wave, FragmentStore::C, instr.c, lane);
                for (index, value) in tile.iter().enumerate() {
                    let address = element_address(bases[lane], strides[lane], index);
                    local
                        .write_u32(address, value.to_bits())
                        .map_err(|_| oob(lane, address))?;
                }
            }
        }
        Op::MmaCompute => {
            for lane in each_lane(mask) {
                let a = fragment(wave, FragmentStore::A, instr.a, lane);
                let b = fragment(wave, FragmentStore::B, instr.b, lane);
                let mut c = fragment(wave, FragmentStore::C, instr.c, lane);
                for row in 0..4 {
                    for col in 0..4 {
                        // Separate multiply and add, accumulating k in order.
                        let mut sum = c[row * 4 + col];
                        for k in 0..4 {
                            sum += a[row * 4 + k] * b[k * 4 + col];
                        }
                        c[row * 4 + col] = sum;
                    }
                }
                set_fragment(wave, FragmentStore::C, instr.c, lane, c);
            }
        }
        _ => {}
    }
    Ok(())
}
