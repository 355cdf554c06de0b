//! 4x4x4 f32 matrix ops. Each active lane does the whole tile itself, with its own fragments
//! keyed by fragment id (a register number), reading and writing local memory.

use super::lanes::{each_lane, src_a, src_b};
use super::memory::Memory;
use super::memory_ops::LaneFault;
use super::trap::{MemorySpace, TrapKind};
use super::wave::Wave;
use crate::instr::{Instr, Op};

type Tile = [f32; 16];

fn fragment(wave: &Wave, id: u8, lane: usize) -> Tile {
    wave.fragments
        .iter()
        .find(|(i, l, _)| *i == id && *l as usize == lane)
        .map(|(_, _, tile)| *tile)
        .unwrap_or([0.0; 16])
}

fn set_fragment(wave: &mut Wave, id: u8, lane: usize, tile: Tile) {
    match wave
        .fragments
        .iter_mut()
        .find(|(i, l, _)| *i == id && *l as usize == lane)
    {
        Some(slot) => slot.2 = tile,
        None => wave.fragments.push((id, lane as u32, tile)),
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

pub fn exec(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    local: &mut Memory,
) -> Result<(), LaneFault> {
    match instr.op {
        Op::MmaLoadA | Op::MmaLoadB => {
            let bases = src_a(wave, instr);
            let strides = src_b(wave, instr);
            for lane in each_lane(mask) {
                let mut tile = [0.0f32; 16];
                for (index, value) in tile.iter_mut().enumerate() {
                    let address = element_address(bases[lane], strides[lane], index);
                    *value =
                        f32::from_bits(local.read_u32(address).map_err(|_| oob(lane, address))?);
                }
                set_fragment(wave, instr.dst, lane, tile);
            }
        }
        Op::MmaStoreC => {
            let bases = src_a(wave, instr);
            let strides = src_b(wave, instr);
            for lane in each_lane(mask) {
                let tile = fragment(wave, instr.c, lane);
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
                let a = fragment(wave, instr.a, lane);
                let b = fragment(wave, instr.b, lane);
                let mut c = fragment(wave, instr.c, lane);
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
                set_fragment(wave, instr.c, lane, c);
            }
        }
        _ => {}
    }
    Ok(())
}
