;; `fma` with wasm's relaxed SIMD: `f32x4.relaxed_madd`, four lanes at a time, which a browser
;; compiles to the CPU's fused multiply-add where the CPU has one (and to a multiply and an add
;; where it does not: the engine tests it before using it). The page instantiates this module on
;; its own memory and puts `fma_run` in its function table (src/fma.rs); the engine calls it as a
;; `machine::FusedRun`.
;;
;; fma_run(registers, run, count, mask, lanes) -> stop
;;   registers: a wave's register file, rows of 64 lanes (256 bytes) one after another;
;;   run: `count` instructions, each a u32 with the register numbers a, b, c and dst in its bytes,
;;   low to high: dst = a * b + c, rounded once, on the lanes below `lanes` (a multiple of 4) that
;;   have their bit in `mask`, instruction after instruction.
;;   An instruction whose result is NaN on a lane stops the run there, in its group of four lanes
;;   before anything of that group is written: the result is (instruction << 8) | first lane of
;;   that group; the lanes before it are done. `count << 8` when the whole run is done.
(module
  (import "env" "memory" (memory 0))
  (func (export "fma_run")
    (param $registers i32) (param $run i32) (param $count i32) (param $mask i64) (param $lanes i32)
    (result i32)
    (local $instr i32)
    (local $word i32)
    (local $a i32)
    (local $b i32)
    (local $c i32)
    (local $dst i32)
    (local $at i32)
    (local $chosen i32)
    (local $offset i32)
    (local $result v128)
    (local $r0 v128)
    (local $r1 v128)
    (local $r2 v128)
    (local $r3 v128)
    (local $r4 v128)
    (local $r5 v128)
    (local $r6 v128)
    (local $r7 v128)
    (block $run_done
      (loop $next_instr
        (br_if $run_done (i32.ge_u (local.get $instr) (local.get $count)))
        (local.set $word (i32.load (i32.add (local.get $run) (i32.shl (local.get $instr) (i32.const 2)))))
        (local.set $a (i32.add (local.get $registers)
          (i32.shl (i32.and (local.get $word) (i32.const 0xff)) (i32.const 8))))
        (local.set $b (i32.add (local.get $registers)
          (i32.shl (i32.and (i32.shr_u (local.get $word) (i32.const 8)) (i32.const 0xff)) (i32.const 8))))
        (local.set $c (i32.add (local.get $registers)
          (i32.shl (i32.and (i32.shr_u (local.get $word) (i32.const 16)) (i32.const 0xff)) (i32.const 8))))
        (local.set $dst (i32.add (local.get $registers)
          (i32.shl (i32.shr_u (local.get $word) (i32.const 24)) (i32.const 8))))
        (local.set $at (i32.const 0))
        ;; Every lane chosen (a full wave): no mask to look at, no blend.
        (if (i64.eq (local.get $mask) (i64.const -1))
          (then
            ;; A full 32-lane wave: its eight groups computed first, one NaN test for all of
            ;; them, then the eight stores (about a third fewer operations than group by group).
            ;; With a NaN, nothing of this instruction is written yet: the group loop below does
            ;; it again and stops at the NaN's group.
            (if (i32.eq (local.get $lanes) (i32.const 32))
              (then
                (local.set $r0 (f32x4.relaxed_madd
                  (v128.load (local.get $a))
                  (v128.load (local.get $b))
                  (v128.load (local.get $c))))
                (local.set $r1 (f32x4.relaxed_madd
                  (v128.load offset=16 (local.get $a))
                  (v128.load offset=16 (local.get $b))
                  (v128.load offset=16 (local.get $c))))
                (local.set $r2 (f32x4.relaxed_madd
                  (v128.load offset=32 (local.get $a))
                  (v128.load offset=32 (local.get $b))
                  (v128.load offset=32 (local.get $c))))
                (local.set $r3 (f32x4.relaxed_madd
                  (v128.load offset=48 (local.get $a))
                  (v128.load offset=48 (local.get $b))
                  (v128.load offset=48 (local.get $c))))
                (local.set $r4 (f32x4.relaxed_madd
                  (v128.load offset=64 (local.get $a))
                  (v128.load offset=64 (local.get $b))
                  (v128.load offset=64 (local.get $c))))
                (local.set $r5 (f32x4.relaxed_madd
                  (v128.load offset=80 (local.get $a))
                  (v128.load offset=80 (local.get $b))
                  (v128.load offset=80 (local.get $c))))
                (local.set $r6 (f32x4.relaxed_madd
                  (v128.load offset=96 (local.get $a))
                  (v128.load offset=96 (local.get $b))
                  (v128.load offset=96 (local.get $c))))
                (local.set $r7 (f32x4.relaxed_madd
                  (v128.load offset=112 (local.get $a))
                  (v128.load offset=112 (local.get $b))
                  (v128.load offset=112 (local.get $c))))
                ;; A NaN is the one value not equal to itself.
                (if (i32.eqz (v128.any_true
                      (v128.or
                        (v128.or
                          (v128.or (f32x4.ne (local.get $r0) (local.get $r0))
                                   (f32x4.ne (local.get $r1) (local.get $r1)))
                          (v128.or (f32x4.ne (local.get $r2) (local.get $r2))
                                   (f32x4.ne (local.get $r3) (local.get $r3))))
                        (v128.or
                          (v128.or (f32x4.ne (local.get $r4) (local.get $r4))
                                   (f32x4.ne (local.get $r5) (local.get $r5)))
                          (v128.or (f32x4.ne (local.get $r6) (local.get $r6))
                                   (f32x4.ne (local.get $r7) (local.get $r7)))))))
                  (then
                    (v128.store (local.get $dst) (local.get $r0))
                    (v128.store offset=16 (local.get $dst) (local.get $r1))
                    (v128.store offset=32 (local.get $dst) (local.get $r2))
                    (v128.store offset=48 (local.get $dst) (local.get $r3))
                    (v128.store offset=64 (local.get $dst) (local.get $r4))
                    (v128.store offset=80 (local.get $dst) (local.get $r5))
                    (v128.store offset=96 (local.get $dst) (local.get $r6))
                    (v128.store offset=112 (local.get $dst) (local.get $r7))
                    (local.set $instr (i32.add (local.get $instr) (i32.const 1)))
                    (br $next_instr)))))
            (loop $next_full_group
              (local.set $offset (i32.shl (local.get $at) (i32.const 2)))
              (local.set $result
                (f32x4.relaxed_madd
                  (v128.load (i32.add (local.get $a) (local.get $offset)))
                  (v128.load (i32.add (local.get $b) (local.get $offset)))
                  (v128.load (i32.add (local.get $c) (local.get $offset)))))
              ;; A NaN is the one value not equal to itself.
              (if (v128.any_true (f32x4.ne (local.get $result) (local.get $result)))
                (then
                  (return (i32.or (i32.shl (local.get $instr) (i32.const 8)) (local.get $at)))))
              (v128.store (i32.add (local.get $dst) (local.get $offset)) (local.get $result))
              (local.set $at (i32.add (local.get $at) (i32.const 4)))
              (br_if $next_full_group (i32.lt_u (local.get $at) (local.get $lanes)))))
          (else
            (block $lanes_done
              (loop $next_group
                (br_if $lanes_done (i32.ge_u (local.get $at) (local.get $lanes)))
                ;; The group's lanes in the mask, as four bits.
                (local.set $chosen
                  (i32.and
                    (i32.wrap_i64 (i64.shr_u (local.get $mask) (i64.extend_i32_u (local.get $at))))
                    (i32.const 15)))
                (if (local.get $chosen)
                  (then
                    (local.set $offset (i32.shl (local.get $at) (i32.const 2)))
                    (local.set $result
                      (f32x4.relaxed_madd
                        (v128.load (i32.add (local.get $a) (local.get $offset)))
                        (v128.load (i32.add (local.get $b) (local.get $offset)))
                        (v128.load (i32.add (local.get $c) (local.get $offset)))))
                    ;; A NaN on a chosen lane stops the run.
                    (if (i32.and (local.get $chosen)
                          (i32x4.bitmask (f32x4.ne (local.get $result) (local.get $result))))
                      (then
                        (return (i32.or (i32.shl (local.get $instr) (i32.const 8)) (local.get $at)))))
                    (if (i32.eq (local.get $chosen) (i32.const 15))
                      (then
                        (v128.store (i32.add (local.get $dst) (local.get $offset)) (local.get $result)))
                      (else
                        ;; The chosen lanes from the result, the others as they were.
                        (v128.store (i32.add (local.get $dst) (local.get $offset))
                          (v128.bitselect
                            (local.get $result)
                            (v128.load (i32.add (local.get $dst) (local.get $offset)))
                            (i32x4.ne
                              (v128.and (i32x4.splat (local.get $chosen)) (v128.const i32x4 1 2 4 8))
                              (v128.const i32x4 0 0 0 0))))))))
                (local.set $at (i32.add (local.get $at) (i32.const 4)))
                (br $next_group)))))
        (local.set $instr (i32.add (local.get $instr) (i32.const 1)))
        (br $next_instr)))
    (i32.shl (local.get $count) (i32.const 8))))
