/// The kernel a first-time visitor sees: eight lanes split by an `if`, so stepping it shows
/// the mask diverging and reconverging.
pub const DEFAULT_KERNEL: &str = "\
; One wave of eight lanes: even lanes take the `if` side,
; odd lanes the `else` side.
.kernel parity
.registers 8
    mov_sr   r0, sr_lane_id        ; r0 = this lane's index
    mov_imm  r1, 1
    and      r2, r0, r1            ; r2 = lane & 1
    mov_imm  r3, 0
    icmp_eq  p1, r2, r3            ; p1: the lane is even
    if p1
        mov_imm r4, 100            ; even lanes
    else
        mov_imm r4, 200            ; odd lanes
    endif
    mov_imm  r5, 4
    imul     r6, r0, r5            ; byte address = lane * 4
    device_store_u32 r6, r4
    halt
.end
";
