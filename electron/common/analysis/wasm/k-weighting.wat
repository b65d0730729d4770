;; The paired K-weighting loop of k-weighting.ts (pairedLoop) in WebAssembly SIMD, loaded by
;; k-weighting-simd.ts. Two independent filters run side by side: every v128 below is an f64x2 holding
;; filter A in lane 0 and filter B in lane 1, so each arithmetic instruction serves both. The operations
;; are pairedLoop's, in its order, so the state and sums are the same to the last bit.
;;
;; Each filter is the BS.1770 shelf (a biquad in transposed direct form II, state p1 p2) followed by the
;; high-pass (state r1 r2), whose numerator 1, -2, 1 is applied as additions, so only its poles come in.
(module
  ;; The state block at $state, then the samples (the caller copies them in; a call that needs more
  ;; memory gets a new memory and instance, see kernel-memory.ts).
  (import "env" "memory" (memory 1))

  ;; Advances both filters over `bytes` / 4 float32 samples each, A's at $a and B's at $b, reading the
  ;; state block at $state and writing its first five slots back. The block is twelve f64x2 slots of 16
  ;; bytes, lane 0 A's and lane 1 B's, in this order:
  ;;   0 p1, 16 p2, 32 r1, 48 r2 (the filters' state, read and written back),
  ;;   64 sum (Σy², read and written back: the caller zeroes it),
  ;;   80 pb0, 96 pb1, 112 pb2, 128 pa1, 144 pa2 (the shelf's coefficients, the same in both lanes),
  ;;   160 ra1, 176 ra2 (the high-pass' poles, the same in both lanes).
  (func (export "filterPairs") (param $a i32) (param $b i32) (param $bytes i32) (param $state i32)
    (local $k i32) ;; byte offset of the sample pair, from 0 to $bytes in steps of 4
    (local $x v128) (local $u v128)
    (local $p1 v128) (local $p2 v128) (local $r1 v128) (local $r2 v128) (local $sum v128)
    (local $y v128)
    (local $pb0 v128) (local $pb1 v128) (local $pb2 v128) (local $pa1 v128) (local $pa2 v128)
    (local $ra1 v128) (local $ra2 v128)

    (local.set $p1 (v128.load (local.get $state)))
    (local.set $p2 (v128.load offset=16 (local.get $state)))
    (local.set $r1 (v128.load offset=32 (local.get $state)))
    (local.set $r2 (v128.load offset=48 (local.get $state)))
    (local.set $sum (v128.load offset=64 (local.get $state)))
    (local.set $pb0 (v128.load offset=80 (local.get $state)))
    (local.set $pb1 (v128.load offset=96 (local.get $state)))
    (local.set $pb2 (v128.load offset=112 (local.get $state)))
    (local.set $pa1 (v128.load offset=128 (local.get $state)))
    (local.set $pa2 (v128.load offset=144 (local.get $state)))
    (local.set $ra1 (v128.load offset=160 (local.get $state)))
    (local.set $ra2 (v128.load offset=176 (local.get $state)))

    ;; One sample of each filter per iteration.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $bytes)))
        ;; x = [A[k], B[k]] as doubles: A's sample into lane 0 (the rest zeroed), B's into lane 1.
        (local.set $x
          (f64x2.promote_low_f32x4
            (v128.load32_lane 1
              (i32.add (local.get $b) (local.get $k))
              (v128.load32_zero (i32.add (local.get $a) (local.get $k))))))
        ;; The shelf: u = pb0·x + p1; p1 = pb1·x − pa1·u + p2; p2 = pb2·x − pa2·u.
        (local.set $u
          (f64x2.add (f64x2.mul (local.get $pb0) (local.get $x)) (local.get $p1)))
        (local.set $p1
          (f64x2.add
            (f64x2.sub
              (f64x2.mul (local.get $pb1) (local.get $x))
              (f64x2.mul (local.get $pa1) (local.get $u)))
            (local.get $p2)))
        (local.set $p2
          (f64x2.sub
            (f64x2.mul (local.get $pb2) (local.get $x))
            (f64x2.mul (local.get $pa2) (local.get $u))))
        ;; The high-pass: y = u + r1; r1 = r2 − (u + u + ra1·y); r2 = u − ra2·y.
        (local.set $y (f64x2.add (local.get $u) (local.get $r1)))
        (local.set $r1
          (f64x2.sub
            (local.get $r2)
            (f64x2.add
              (f64x2.add (local.get $u) (local.get $u))
              (f64x2.mul (local.get $ra1) (local.get $y)))))
        (local.set $r2
          (f64x2.sub (local.get $u) (f64x2.mul (local.get $ra2) (local.get $y))))
        ;; sum += y·y
        (local.set $sum
          (f64x2.add (local.get $sum) (f64x2.mul (local.get $y) (local.get $y))))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $next)))

    (v128.store (local.get $state) (local.get $p1))
    (v128.store offset=16 (local.get $state) (local.get $p2))
    (v128.store offset=32 (local.get $state) (local.get $r1))
    (v128.store offset=48 (local.get $state) (local.get $r2))
    (v128.store offset=64 (local.get $state) (local.get $sum))))
