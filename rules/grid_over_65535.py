"""
## What it does
Flags a launch whose grid multiplies two or more runtime sizes, so that its number of programs
grows past 65535 with the inputs: `kernel[(triton.cdiv(T, BT), B * H)]` with `B, T, H` taken
from tensor shapes. A size is a tensor extent (`x.shape[i]`, `x.size(i)`), a count read from
a tensor's values, or arithmetic of one with bounded values; literals, device core counts and
`min(..., cap)` bound it. It also flags a grid fixed over the limit (`(256, 512)`).

Not flagged: a grid with a single runtime size, a launch in a host `for` loop chunking the
grid (its other axes are still sized) or behind a test bounding it (`if NT * B * H >
BUDGET:`), and a module setting `TRITON_ALL_BLOCKS_PARALLEL=1`.

## Why is this bad?
triton-ascend refuses to launch more than 65535 programs: its launcher multiplies the grid's
axes before every launch. Measured with triton-ascend 3.2 (its real launcher on a simulated
device): a `(257, 255)` grid (65535 programs) passes the check, `(256, 256)` raises
`RuntimeError: grid should be less than 65536! You can try "export
TRITON_ALL_BLOCKS_PARALLEL=1" to avoid this problem.` Tests with small shapes pass; the first
long sequence or large batch fails, e.g. `T = 32768, BT = 64, B * H = 128` gives 65536
programs. `confirm` has no evidence to add: the refusal needs sizes a test workload rarely
reaches, and the limit does not depend on the kernel.

## Example
```python
B, T, H, K = k.shape
NT = triton.cdiv(T, BT)
chunk_fwd_kernel[(NT, B * H)](k, o, T, H=H, K=K, BT=BT)
```

## Use instead
```python
for bh_off in range(0, B * H, max_bh):  # host chunking, the kernel adds BH_OFFSET
    chunk_fwd_kernel[(NT, min(max_bh, B * H - bh_off))](k, o, T, BH_OFFSET=bh_off, H=H, K=K, BT=BT)
```
or a 1-D core grid: `kernel[(num_core,)]` with `for task in tl.range(tl.program_id(0),
NT * B * H, num_core)` in the kernel. The known workaround that leaves the kernel as it is:
`TRITON_ALL_BLOCKS_PARALLEL=1` turns the launcher's check off and makes the compiler map the
grid's programs onto the physical cores (blockify); set at module level
(`os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"`), it holds for every launch of the process,
not only this module's.

## Fix safety
No automatic fix: both remedies change the kernel's indexing.

## Details
### What counts as a size
A size is a tensor extent (`x.shape[i]`, a name unpacked from
`x.shape` or `map(int, x.shape)`, `*x.shape`, `x.shape[:2]`, `x.size()` or a name bound to `x.shape`, `x.size(i)`,
`len(x)`, the rows `x.numel() // x.shape[-1]`: a count of a tensor's elements, `x.numel()`
(also `x.nelement()`, `torch.numel(x)`) or `math.prod(x.shape)`, divided by some of its own extents and by bounded values, such as
`x.numel() // (H * K)` with `H, K = x.shape[-2:]` or `x.numel() // x.shape[-1] // H`, its
leading extents, also when an extent is read as an int, `x.numel() // int(x.shape[0])`,
`x.numel() // len(x)`, also of a copy keeping the extents (`x = input if input.is_contiguous()
else input.contiguous()`, `x = input.float()`, then `x.numel() // input.shape[-1]`); divided by
another tensor's extent or a value the module does not show, it is unknown), a count read back from a tensor's values
(`.item()` or `int(...)` of `t.max()`, `t.amax()`, `t.sum()` or `torch.max(t)`: the longest
sequence of a varlen batch, `int(seq_lens.max().item())`; `.item()` of a tensor's last value,
the total of a cumulative count: the tokens of a varlen batch, `cu_seqlens[-1].item()`; not
`.item()` of a scalar setting),
a name the function passes as a dimension of a tensor it allocates (`torch.empty(L, L)`,
`torch.zeros` / `ones` / `rand` / `randn`, `torch.full((n, L), 0)`, `torch.empty_strided`,
`x.new_empty` / `new_zeros` / `new_ones` / `new_full`: dimensions, one sequence of them, or
`size=`) when its value is an item of a name the module does not show (`L =
problem["total_s"]`, also passed by a caller, `_mask(int(problem["total_s"]))`; `OH, OW =
output_size`): an extent of the data, not the setting such an item is otherwise taken for (a
parameter no caller shows, an attribute, `pool.head_dim`, and a `.view` / `.reshape`
dimension stay unknown, allocated or not: on real code they hold a model's head count, head
size or group count as often as a length; a literal, a core count, `min(..., cap)` stay bounded)
and sums, multiples, `//` and `triton.cdiv` (however written: `math.ceil(T / BT)`, `-(-T // BT)`,
`(T + BT - 1) // BT`, `(T - 1) // BT + 1`, each read as `triton.cdiv` throughout) of it by
a bounded value (also by a choice whose other arms are at least the size: `triton.cdiv(n, rows)`
with `rows = 8 if n > 8 else triton.next_power_of_2(n)` is `n/rows`), and `a if c else b` when both arms are sizes,
or when the bounded arm runs only where a size is at most a literal or a size or shape is
zero or empty (`B = math.prod(dims) if dims else 1` with `dims = x.shape[:-2]`, `n if n else
1`, `n if n != 0 else 1`, `1 if n == 0 else n`, `n or 1`: a test of emptiness caps nothing, so
`B` is the batch's size);

### What bounds a size
`min(..., cap)` bounds it, and
so do literals, device core counts and an item of a name bound once to a tuple literal
(`_TILE = (64, 128)` at module level, then `bm, bn = _TILE` makes `bm` the 64), and the length
of a list (or tuple) the function binds once to a literal and changes only by adding a known
count of items, in no `while` loop nor nested function and in `for` loops of bounded trips only
(`items = []`, then `for i in range(min(n, 1024)): items.append(i)` makes `len(items)` at most
1024; a loop over written items, `for t in (a, b):`, is bounded; `items.extend(xs)`, a loop over
`xs`, passing `items` to a call, taking its method, `add = items.append` or
`map(items.append, xs)`, are not); a name the
function rebinds holds the value its one plain assignment reaching the launch in straight-line
code gives it (`blocks = props["num_aicore"]`, then `blocks = x.shape[0] * x.shape[1]`: a size
at the launches after it). A name
unpacked from a conditional of tuples is its arms' own element (`BM, BN = (1, 256) if m <=
16 else (8, 1024)` makes `BM` the bounded `1 if m <= 16 else 8`). A sum of sizes is one size
(`M_text + M_vae` is at most twice the larger), never their product.

### Updates, clamps and loops
An update reading a size
(`n = min(n, other)`, `n = n + pad`) keeps it a size; one that caps it (`n = min(n, 4096)`)
may bound it, and does as the name's last binding under no `if` or loop (every later read
sees the cap). A clamp, `if n > 4096: n = 4096` (also `>=`, `4096 < n`; no `else`), is `n =
min(n, 4096)`, and right after `n = v` it is `n = min(v, 4096)`: `block_h =
triton.next_power_of_2(hidden)`, then `if block_h > 4096: block_h = 4096`, leaves
`hidden/block_h` programs; `if n < 16: n = 16` raises a small value and caps nothing. An update in place is that assignment (`n *= d` is `n = n * d`): `pre = 1`, then
`for d in x.shape[:dim]: pre *= d` (or `pre *= shape[k]` over `range(dim)`; also over a name
a function binds only to shapes and never changes: `dims = x.shape[:dim]`, then `for d in
dims:`, also to the shapes broadcast: `dims = torch.broadcast_shapes(a.shape[:-2],
b.shape[:-2])`, also on several paths: `dims = a.shape[:-2]` in an `if` or `try`, `dims =
b.shape[:-2]` in its `else` or `except`, each item then an extent of either; an item of shapes
broadcast is the largest of the items they align there, no one tensor's extent, so a test on
`a.shape[0]` alone bounds none of them, while tests bounding every item one may align bound it
(`a.shape[0]` and `b.shape[0]` for `s[0]`; for `s[i]` each shape's items up to `i`, a shape of
fewer items aligning a lower one of its own there; for `s[-m]` each one's `[-m]`); `B, T = s` of a name bound to a shape in one arm and to a
tuple in the other, `s = (2, 4)`, is an extent or the element) makes `pre` a size, one and not two (the loop may run once), where it reaches the launch (not
after `pre = 4`, nor after a loop whose body ends `pre = min(pre, 100)`), and `n //= m` by a size leaves `n` unknown. A
bound divided by anything stays bounded (a tile of
`16384 // x.element_size()` elements), and so does arithmetic of bounds (`1 << 17`) and
the power of two above one (`triton.next_power_of_2(n)`, however written: `1 << (n -
1).bit_length()`, `2 ** math.ceil(math.log2(n))`); that of a size is the size.

### Values from callers and from functions of the module
A value a caller passes is read where the caller
binds it (`width = int(head_dim)` in the caller, then `_rope(x, width)`), also through a
parameter the function first rebinds to a value of itself (`n = int(n)`, `n = max(n, 1)`). A block bound to a
bounded value and then, under tests, to values at least the size it divides (`BT = 1024`, then
`if T <= 4096: BT = triton.next_power_of_2(T)`) leaves `T/BT` programs. A function calling
itself with a parameter unchanged (a scan recursing on its partial sums) adds no value to it. A value a function
of the module returns in a tuple is read where it returns it (`x, M, N = _prepare(x)` or
`_prepare(x)[1]`, with `return x.contiguous(), M, N` and `M, N = x.shape` in `_prepare`), so
is an extent of a shape it returns (`b, h, d = _check(x)` with `return x.shape`, `tuple(x.shape)`,
`x.size()`) and an element of a tuple or shape it returns through a name bound once (`shape =
(b, h, d)`, then `return shape`); an extent of a tensor the call passes is that tensor's extent
in the caller, which a test there, or one the function makes of its parameters before it
returns (`if x.shape[0] > 1024: raise`), bounds, and
a call of a function of the module every return of which is bounded whatever the sizes is
bounded (`bn = _pick_block(n)` returning `min(2048, triton.next_power_of_2(n))`); one
returning a value made of its parameters only is that value with the call's arguments in
their place (`_next_pow2(triton.cdiv(T, 64))` with `return 1 << (n - 1).bit_length() if n >
1 else 1` grows as `T`: a choice whose bounded arm runs only below a literal is its sized
arm).

### Names bound to products, in `if` arms, or after the launch
A
name bound to a product of sizes (`M = B * T`) counts as that product, as it does written
inline; a name bound in several arms of `if` statements that pick a variant (an equality,
identity or truth test: `if x.dim() == 4: bs = b * s` / `else: bs = x.shape[0]`) counts as the
arm multiplying the most sizes, which may run whatever the sizes (under a test that orders
values, `if B * H > cap: rows = cap` / `else: rows = B * H`, it is one size), also when the
other arm binds a factor to the name (`b, s = 1, bs`: a name read in its own values is sized
from its other origins). Two or more names (or a dict's entries) the grid reads, bound in the
arms of one such `if` (its tests all picking a variant), are sized together, path by path: `if
flag: n, h = B, 4` / `else: n, h = 4, T` (or `cfg = {"n": B, "h": 4}` / `cfg = {"n": 4, "h":
T}`) launches `(n, h)` as `(B, 4)` or `(4, T)`, neither multiplying two sizes, while `n, h = B,
T` in one arm is reported; an arm binding neither keeps those bound before the `if`, and one
ending in `return` or `raise` is no path. So are names bound in the blocks of one `try`: its
body (with its `else` block) is one path, each handler another (`try: n, h = B, 4` / `except
E: n, h = 4, T` is silent), a handler binding one of them keeping the other's binding in the
body or before the `try`; one bound in its `finally` block leaves them sized one at a time. A name's bindings in a loop, in a nested block, or
after the `if` leave it sized one name at a time, and so does a test that orders values. The
product of a tensor's extents counts as a product of sizes too, `math.prod(x.shape[:d])` (the rows of
its leading dimensions, taken to be two or more), also over a name a function binds once to a
shape and never changes (`shape = list(x.shape)`, then `math.prod(shape[:axis])`), or
`functools.reduce(operator.mul, x.shape, 1)` (or `lambda a, b: a * b`). The product of a slice
whose bounds are no literals (`math.prod(x.shape[dim + 1:])`, a loop `for s in x.shape[dim +
1:]: inner *= s`) or of a concatenation of slices and int literals (`math.prod(shape[:dim] +
shape[dim + 1:])`, also bound to a name first) is one size, and so is `x.numel()` divided by such
a product of its own extents (`x.numel() // (x.size(dim) * inner)`). A name's assignments written after the point
where the grid is evaluated (the launch, or the `grid = (...)` a closure launches) do not
reach it when no loop holds that point: `batch, _ = record` on a cache hit's path, after the
miss's launch and `return`, leaves `batch` the size it was. A name a function nested in its
function rebinds under `nonlocal` (`def cap(): nonlocal n; n = min(n, 4096)`) may hold
whatever a call of it stores there: unknown, neither the size nor the bound it was bound to
before.

### Arms that never run
A binding, or an addition to a list grid, in an `if` arm whose test is known to fail (`if
False:`, `if flag:` after `flag = False`, `if mode == 1:` after `mode = 0`), after an arm
known to hold, or in a loop over what is known empty (`for _ in range(0):`) never runs. A
module-level name bound once to a literal is trusted as that constant (`DEBUG = False`, then
`if DEBUG: grid.append(B)` adds nothing): the module shows no other value, and a finding rests
on what the code shows. One the module binds again (`if os.environ.get("X"): DEBUG = True`) or
a function rebinds under `global DEBUG` is unknown, its arm may run. A store from another
module (`mod.DEBUG = True`, a test's `monkeypatch.setattr`) is not seen: the grid of an arm
only such a store turns on is not checked.

### Axes it cannot size
An axis the module does not size is left out and the others still count: every axis is
at least 1 (a zero axis launches nothing), so `(b * h, NUM_BLOCK, n_split())` launches at least `b * h * NUM_BLOCK` programs.
So is a factor of a product that is at least 1 unless it is 0: `n * triton.cdiv(H, rows)` with
`H` a size or bounded grows as `n` whatever `rows` is, and so does `n` times the power of two
above anything, or times `max(1, ...)`; a factor that may be below 1 (a parameter) leaves the
product unknown.

### Where the grid and the launch are read
A `grid`
name bound more than once is, at a launch, the plain `grid = ...` or `def grid(meta):`
nearest before it in the same block (straight-line code: the only one that reaches it), or an
update in place there (`grid += (B * H,)`: `grid + (B * H,)`, its `grid` the binding before the
update, as in `grid = grid + (B * H,)`; a chain of up to 16 such updates); one that several bindings may reach (`grid = (NT, B * H)` in an `if`, `(NT, N * H)` in its `else`;
a lambda's arms) is reported when each would be, not when one is a grid that cannot grow (the
core count bound when the sizes are large). A grid a dict holds (`kernel[cfg["grid"]](...)`)
is the entry written last before the launch (`cfg = {"grid": ...}`, then `cfg["grid"] = (n,)`),
after an `if` the entry each arm leaves (an arm writing none, or a missing `else`, leaves the
one written before it), after a `try` the entry its body (or its `else` block) leaves and the
one each handler leaves (a handler writing none leaves the body's or the one before the `try`;
none when the `finally` block writes it), an entry read by the grid the same way (`cfg["n"]`, or a grid lambda's
`meta["BLOCK"]` with `meta = {}`, `meta["BLOCK"] = triton.next_power_of_2(n)`: a block at
least the size it divides; a grid function nested in the function, `def grid(meta): return
(cfg["n"], 4)`, reads the entries written before it when nothing changes the dict after it);
none when `cfg.update(...)`, `setdefault`, a `**` splat or a store
in a loop may change it there. A list grid built by `.append` (`grid = []`, then
`grid.append(n)`, `grid.extend((B, H))`, `grid.extend(lead)`, `grid.insert(0, n)`, then
`kernel[tuple(grid)]` or `kernel[grid]`) holds on each path what the block binding it adds
before the launch: an addition under an `if` on the paths through its arm (an arm ending in
`return` or `raise` is no path), one in a loop on the paths running its body once or not at
all, and what the blocks holding the launch add before it (`if flag: grid.append(B)` then the
launch, in that arm; not under a test that orders values); in a loop holding the launch, a later
trip also launches what its whole body added once on a path not leaving the loop
(`k[tuple(grid)]` then `grid.append(B)`, also before an `if done: break`; not what an arm
ending in `break` adds, nor anything when the body always breaks (also in a `with` block, a `finally`
block or a `try` body with no `except`), ends in `return` or `raise`,
or the loop runs once: `for _ in (0,):`, `range(1)`). Each path's grid is read; when every test choosing among them picks a variant (an
equality, identity or truth test, or a `for` loop: `if batched: grid.append(B)`) the launch is
reported when one path's grid would be (that path may run whatever the sizes), else when each
would be. `.extend` of a name adds the axes of the grid it holds (`*lead`), of a value the
module does not show one unsized axis; `.insert` at an index that is no literal adds its axis
at the end (the same programs). An item stored at an int index (`grid[1] = x.shape[2]`,
`grid[-1] = n`) replaces that item on the paths through it, as an addition would be made there
(under an `if` that tests something else, on its arm's paths). A `while` loop testing only the
list's length against int literals (`while len(grid) < 2:`) picks a variant: it counts the items
added, not their sizes. A `try` adding to it gives a path through its body and its `else` block,
and one through each handler (as if the body had added nothing) not ending in `return` or
`raise`, each followed by its `finally` block; no test chooses among them. Past 64 paths, when every
test picks a variant the first 64 are read (each may run), else one grid: what the block binding
it adds outside any `if` or loop (every path launches at least that). A list the function changes otherwise between its
binding and the launch (`grid.pop()`, `del grid[1]`, `grid[i] = 4` at an index that is no literal, `grid.clear()`, `grid[:] =
[4]`, passing it to a call, `alias = grid`, `add = grid.append`) is no grid read; `len(grid)` and `grid[0]` read it. A test around
the launch, or an `assert` before it, reads the axes added as those written in a tuple: `if
x.shape[1] <= 16:` around `k[tuple(grid)]` bounds the `x.shape[1]` appended (an item read back,
`grid[0] <= 4096`, bounds the item at that index, appended or written in the list literal,
when every path puts the same one there; else what the list literal reads), while the names they read hold what they
held there (not after `B = x.shape[2]` rebinds the `B` appended, or `x = x.transpose(0, 1)`). A
tuple bound to the name launched (`grid = (B * T,)`) is read both ways: a test of the name
(`assert grid[0] <= 65535`) bounds what the launch gets whatever `T` holds later, and through
that name a test reads the tuple's names wherever they are bound, so `grid = (x.shape[0], B)`,
then `B = x.shape[2]`, leaves `assert B <= 16` taken to bound the grid's `B` (a known miss).

A launch through a name bound only to kernels of the module
(`fn = k_32 if BT == 32 else k_64`, then `fn[grid](...)`, or the choice written in the launch,
`(k_32 if BT == 32 else k_64)[grid](...)`) is a launch of each, reported once, and so is one through an attribute of `self` / `cls` bound only to kernels of the module
(`_kernel = my_kernel` in the class body, `self._kernel = my_kernel`), and so is one through an
entry of a namespace or dict that a function of the module returns (`k = _kernels()`, then
`k.copy[grid](...)` or `k["copy"][grid](...)` with `_kernels` returning
`types.SimpleNamespace(copy=_copy)`) when the entry names one kernel. A launcher stored in a
name the function binds once (`launcher = kernel[grid]`, then `launcher(x, n)`, or
`launcher = functools.partial(kernel[grid], BT=64)`) launches on that grid where the function
calls it, and is reported where the grid is written. So does a launcher a function of the
module returns (`def _launcher(n, B): return kernel[(n, B)]`, then `_launcher(N, B)(x)`), on
the grid each call makes: reported where the grid is written, once, relating the first call
passing sizes that grow (a call passing small ones hides none after it). So does
`kernel.run(..., grid=g, warmup=False)` (Triton's `JITFunction.run`, which `kernel[g](...)` calls), on its `grid=`; not
one with `warmup=True`, which compiles without launching. A kernel wrapped by torch for
`torch.compile` is launched as the kernel itself (`torch.library.wrap_triton(kernel)[grid](...)`,
also `capture_triton`, its older name, under any name the imports give them: `from torch.library
import wrap_triton as w`, then `w(kernel)[grid](...)`, or a name bound to the wrapped kernel,
`wk = wrap_triton(kernel)`, then `wk[grid](...)`); not a call of any other function.

A launch in a
helper taking its grid as a parameter (`def _run(grid, *args, **kwargs): return
kernel[grid](*args, **kwargs)`), directly or through a name it binds once to it, is checked at
each call of the helper, on the grid passed there, also when the helper computes the launch's
other arguments itself (`n = x.shape[-1]`, then `kernel[grid](x, n)`); a test of the helper
bounding the grid it is passed guards every call (`if grid[0] * grid[1] > 65535: raise`).

A
method's parameters are what its calls through its class or `self` pass (`Ops.launch(x, B *
H)`, `self._run(grid, x)`; a `torch.autograd.Function`'s `forward`, `Fn.apply(x, B * H)`), and a
function's are what the calls of a wrapper passing its arguments on unchanged pass (`def
norm(*args, **kwargs): return _norm(*args, **kwargs)`, then `norm(x, B * H)`).

A grid function (`lambda meta: (...)`, or `def grid(meta):` nested in the launching
function, one per wrapper) reads its sizes from the function around it, and its launch's
values from what the launch passes, by keyword or position: `meta["BLOCK"]` (or
`meta.get("BLOCK")`) of `k[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, n,
BLOCK=triton.cdiv(n, num_core))` is `triton.cdiv(n, num_core)`, at most `num_core` programs;
not for a kernel under an autotuner, heuristics or another decorator, which may choose it (the
value is then unknown, as one the launch does not pass). A grid a function of the
module returns for the arguments it is called with (`def _grid(T, BT, B): return
(triton.cdiv(T, BT), B)`, then `kernel[_grid(T, BT, B)]`), or a static or class method of a
class of the module does (`kernel[Ops._grid(T, B)]`, `self._grid(T, B)`), or a lambda bound to a name
(`make = lambda a, b: (a, b)`, then `kernel[make(T, B)]`; so too a block such a lambda returns), is that tuple written where the call
is, the arguments in place of the parameters: sized, bounded and guarded there, as if written
inline. A grid built from parts is the tuple it makes: tuples concatenated (`(B * T,) + (H,)`),
a tuple unpacked into one (`(*lead, H)` with `lead = (B, T)`; a tensor's extents unpacked,
`(*x.shape[:-1], H)`, launch their product, as the axis `math.prod(x.shape[:-1])`), a comprehension over sequences the
function writes (`tuple(triton.cdiv(s, b) for s, b in zip((T, H), (BT, 1)))`, `[triton.cdiv(s,
BT) for s in (T, H)]`, each item in place of the loop's names; not one with an `if`, nor over a
sequence the module does not show). A grid function with some of its parameters bound by
`functools.partial` (`kernel[partial(_grid, n=T, bh=B * H)]`) is the tuple it returns for them,
as a call passing them would make it, its first parameter left unbound the launch's `meta`;
a partial of a partial (`partial(partial(_grid, n=T), bh=B * H)`, also through a name bound
to the inner one) is one partial, the inner arguments first, the outer keywords replacing
the inner ones. A
grid an attribute of `self` holds is what the methods of its class store there (`self.grid =
lambda meta: (...)`, read where it is stored), or its method of that name (`def _grid(self,
meta): return (...)`, then `kernel[self._grid]`) or its property of that name (`@property`
`def grid(self): return (...)`, also `functools.cached_property`); the attributes such a
method reads (`self.T`) stay unknown. A grid stored on the first parameter of a method
(`ctx.grid = (B, T)` in an autograd `forward`) is what the function, or a method of its class
taking that parameter first (`backward(ctx, do)`), stores there.

A kernel another module
defines is checked where this one launches it (`from .kernels import k`, then `k[grid](...)`, or
`kernels.k[grid](...)`): the launcher refuses the grid whatever the kernel does. So is one
launched past its autotuner or heuristics (`k.fn[grid](...)`, Triton's `Autotuner.fn`). A kernel with a 1-D task loop is checked like
any other: on the core-count grid it is written for (`(num_core,)`) it has no runtime size, and
launched on a grid that grows with the input it is refused all the same.

### The message
The message lists the sizes (`T/BT * B * H > 65535`), after the axes it could not size
(`NT * B * H > 65535` for `(NT, B * H)` with `NT` from a helper) but for those that are one
program whatever the sizes: `triton.cdiv(D, BLOCK_D)` with a block at least `D` (`BLOCK_D = D`,
`triton.next_power_of_2(D)`, `max(..., D)`), as an axis or in one's product (`NV * NT` is `NT`,
and `triton.cdiv(K, BK) * N * H` grows as `N * H`).

### Grids fixed over the limit
It also flags a launch whose grid the module fixes over the limit, whatever the sizes: axes
whose value it knows (integer literals and their arithmetic, `triton.cdiv` of them however
written, the power of two above one, `min` / `max` / `int(...)` of them, and names every
binding of which holds the same such int, `N_ROWS = 1 << 20` at module level; a parameter, or
a name a `for`, comprehension, `with`, `except`, import, `match`, `global`, a nested
function's `nonlocal` or a starred unpacking (`M, *N = ...`) may rebind, is unknown) multiplying past 65535 (`(256, 512)`, `(triton.cdiv(N_ROWS, 16), HEADS)`: the
message gives the count), in a loop too (a chunk over the limit is refused as well), and a
known count of half the limit or more beside a runtime size (`(B, 40000)`: any batch of two).
In a host loop over items written out, each trip launches its item's grid (`for n in (1,
100000): k[(n, 8)]` launches `(100000, 8)`, reported; `for n in (1, 64):` is not), when the
loop's body never rebinds the variable and the grid is written in the loop.

### Not flagged: chunking loops and guards
Not flagged: launches inside a host `for` loop chunking the grid: a loop walking chunks (over
a call: `range(0, B * H, max_bh)`, a chunk helper, `x.split(CH)`, `enumerate` of one; a
comprehension over one, or a name bound to one; not over tensors or sizes, `for grad in (dx,
dw):`, `for y in ys:`, each trip of which launches a whole grid of its own) whose variable the
grid reads, directly or through names bound from it (`n = min(max_bh, B * H - bh_off)`, then
`rows = n * M`), or an
argument of an offset does (`BH_OFFSET=bh_off`, `i_off`); or a `while` loop, its variables the
names its test reads and its body only steps by a chunk (`while start < n:` ... `start += CH`,
the chunk size read from what it binds them to; not a trip count, `it += 1`, nor a size
halved, `n = triton.cdiv(n, 64)`: such a loop chunks nothing); also in a function every call of which in the module
is in such a `for` or `while` loop, passing a value of its variable or counter for a parameter
the grid or such an argument reads (the loop calls a wrapper). The loop bounds only the axes, or factors of an axis
(also of a name bound once to a product, `rows = bn * M`, or to a product of such a name,
`total = rows * H`), that read its variable: the others
are sized as any grid is, and reported when they alone multiply two or more sizes (`for b0, bn
in _batch_chunks(B): k[(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))]` still grows as `m/64 *
n/64` in each trip; the message names the chunked factors, each trip's count, among those it
multiplies, written as the others: `bn * m/64 * n/64`, `T_SIZE/BT` of `triton.cdiv(T_SIZE,
BT)`), unless the chunk size reads their sizes (`range(0, B, 65535
// (NM * NN))`). A chunk of known size (`min(65535, M - s)`, a constant `CH` for `65535`, a
name bound to one, that divided by a known block: `triton.cdiv(min(CH, M - s), 16)`, or floored:
`max(1, min(CH, M - s))`, the `min`'s arguments in either order) counts as
that size, the programs of a full trip, as a known count does: half the limit or more beside a
runtime size (`for s in range(0, M, 65535): k[(min(65535, M - s), triton.cdiv(N, 128))]`), or
over it times the known counts (`(min(32768, M - s), 4)`, 131072 programs a trip), is reported,
the message writing the chunk as that size (`65535 * N/128`); a chunk of unknown size
(`min(step, M - s)` with `step` a parameter) counts as today. An offset argument alone chunks the whole grid. A loop whose variable neither
reads chunks nothing, each trip launching the whole grid: `for i in range(0, n, 64):
_solve_block(X, k, i)` walking diagonal blocks, a scan `for chunk_id in range(NT):`, is still
reported. Or
under an `if` bounding the grid, or all but one of the sizes it multiplies, from above (`if
NT * B * H > BUDGET:` chunked `else:` one launch, or an early `return` or `raise` on such a
test, one its block always reaches (not `if strict: raise` inside it), or an `else:` exiting
after such a test, or an `assert` of one before the launch in its function, `assert T * B * H
<= 65535` (or `torch._check(...)` / `torch._assert(...)` of one),
or a call there of a function of the module checking its parameter so before it can return
(`_check_grid(NT * B * H)` of a `_check_grid(n)` doing `if n > 65535: raise ...` or `assert n
<= 65535`: the test with the call's argument in place of the parameter),
in the blocks around it too: its arm of an `if`, a `with` block, and a `with` block before it,
not another arm nor an `if` it is not in, `if mode == "x": assert T <= 4096` before it; or,
for sizes the launching function takes as parameters, such an `if` around each of its calls in
the module: `if grid_fits(B * H, T): expand(x, B * H, T)`, or around each call of a function
making such a call from its own parameters, up to three calls up; a call of the launching
function in a host `for` loop counts as one: a checked call and a chunked fallback); a size
the launching function takes as a parameter is also bounded where every call of it in the
module passes one that the caller orders from above or pins before the call, as a test in the
launching function would (`if spatial_dim >= 65536: raise`, then `_launch(x, B, spatial_dim)`;
an `assert`, an `if` around the call), or passes on a parameter of its own its callers bound
so, up to three calls up; not a tensor passed whole, whose extent the caller tests (`if
x.shape[1] > 65535: raise`, then `_launch(x)`), nor a test after the call, or
passing one to a function that may (`if use_chunked(T, B, H):`, or `if use_seq:` with `use_seq
= use_chunked(T)`; a function of the module may when it orders a value read from its
parameters against a bounded one, `T * B * H > BUDGET`, caps one with `min` (`min(n, 4096)`;
not `max(1, n)`, which grows with `n`, nor `min(n, m)` of two), or calls another function of
the module that may). None of the callers' tests or loops counts when the module reads the
launching function other than by calling it (`OPS = {"launch": _launch}`,
`register(_launch)`), a decorator gets it (`@register`, `@torch.library.custom_op(...)`) or
`__all__` lists it: calls it does not show may pass anything (reading `_launch.__name__`,
`f is _launch` or `callable(_launch)` hands it to no one). A test bounds the value it
tests: a name rebound after it to a value the test leaves unbounded (`if n <= 1024:`, then `n =
n * M` before the launch or the call passing `n` on; a parameter the callers bound, rebound so
in the launching function) is a size again there (`n = 2 * n` and `n = int(n)` keep the bound),
and so is one rebound otherwise between the two (`n *= M`, under an `if`, a loop's target, `with
... as n`, `(n := n * M)`, after the launch in a loop around it), unless each such rebinding
only shrinks it (`n //= 2`, `n >>= 1`, `n = min(n, m)`, `n -= pad`; not `n -= -1`), also
after the launch in a loop around it. A name bound from the tested one before it is rebound
keeps the bound (`m = n`, then `n = n * M`, launching `(m, B)`).

### What a guard bounds
An ordering bounds what its smaller side reads (a
name, an extent, a value the grid reads: `N * H <= cap` bounds `N` and `H`; not when that
side is bounded whatever they are: `if BK > 256:` bounds `K` with `BK =
max(triton.next_power_of_2(K), 16)`, at least `K`, and nothing with `BK = min(..., 128)`, nor
does `if 4096 // K > 4:`, a lower bound), and the grid's
factors made of those only (`triton.cdiv(K, BK)` after `if K > 256: raise` or `assert K <= 256`;
an axis it could not size stays unsized: bounding `group_size` makes no size of `N //
group_size`); the other factors still grow: `(triton.cdiv(K, BK) * N * H,)` is reported after either, as `N
* H`, the message listing the factors left. A helper that only tests signs and orders sizes
against other runtime sizes (`x.stride(0) < 0`, `last + block <= x.numel()`: a layout or
"fast path applies" check) bounds nothing.

A test is taken apart at `not`, `and` and `or`
(`0 < K <= 256` at its comparisons): `if T > 1 and ...:` bounds nothing (a lower bound), `if T
<= 4096 and ...:` bounds `T`, `if B > 16 and H > 64: raise` one of `B` and `H` (either: `(B,
H)` is one size then, `(B, H, NT)` is reported), `if B * H > budget:` may (a budget the module
does not show), `if idx.numel() < batch: raise` does not (another runtime size).

An
equality, identity or truth test such as `if BT == 16: return`, `if out is None:` or `if
out.numel() == 0: return` (`out = torch.empty_like(x)`) picks a variant and bounds nothing,
and neither does a builtin (`len(x.shape) != 3`, `isinstance(x, torch.Tensor)`) nor, inside
an equality, a call of another module (`torch.numel(x) == 0`); a function of the module that
orders sizes may (`if _path(T, B * H) == "chunked":`).

An axis capped at half the limit or
more (`min(rows, 65535)`, `rows if rows < MAX_PROGRAMS else MAX_PROGRAMS`) is no bound beside
another factor of two programs or more: `(min(rows, 65535), heads)` and `(min(rows, 65535),
4)` are reported (also as `int(min(rows, 65535))`), `(min(total, 65535),)` alone is not.

An equality that pins a size to a
bounded value does bound it where it holds (`assert v.shape[2] == 24`, `if HV != 24: raise`,
`if HV == 24:` around the launch), and so does a membership in a tuple, list or set of
bounded values written there or held by a name bound once (`if m in (1, 2):`, `if n not in (1,
4): raise`), also of a tuple of sizes in tuples of bounded values as long (`shape = (b, h)`,
`if shape not in SUPPORTED: raise` with `SUPPORTED = (SHAPE_1, SHAPE_2)` and `SHAPE_1 = (1,
8)`: each size is pinned); one between
two sizes does not (`assert v.shape[2] == k.shape[2]`), nor one of a value bounded whatever
the sizes (`assert len(grid) == 2` with `grid = (B, T)`: the tuple's length, not its items). A name bound once to a test is that
test where it is read (`vector = m in (1, 2) and n in (1, 4)`, then `if vector:` bounds `m`
and `n`; `use_short = T <= 512`, then the `else:` of `if use_short:` bounds nothing), when its
function rebinds none of the names the test reads between the two and no loop holds either.

A test reads the grid's sizes through names,
never through an imported module: `bk = triton.next_power_of_2(key_dim)` and `if bk > 256:`
bound nothing of a grid `(B, H, triton.cdiv(D, bv))`; or through the extent a name is bound
to, before or after it is bound: `if x.shape[0] > 128: raise` (or `x.size(0)`) bounds `m` of
`m, k = x.shape` (not an `m` a `for` or `with` may rebind), while `x.shape[1]`, another
tensor's extent or one of an `x` the function rebinds (`x = x.reshape(-1, k)`, `for x in xs:`,
`with ctx() as x:`) bound nothing of it. Through a name's value, a test reads
only what makes the value larger: `if K == 1:` with `K = x.numel() // M // N` (the rows left
after `M` and `N`) bounds neither `M` nor `N`, nor does a test of `x.numel() - M` or of `M %
64`; a divisor, what is subtracted and the sides of a `%` are read only where the test
itself writes them.

### Not flagged: other grids and launches
Not flagged either:

- grids
with a single runtime size (`(triton.cdiv(T, BT),)` reaches the limit only past
`65535 * BT` tokens);

- grids with a budget axis, a bounded count divided by the sizes of the
other axes (`(B * H, min(n_blocks, 32768 // (B * H)))`, `32768 // B // H`, `int(...)` of one,
or a name bound only to one: at most 32768 programs, however large `B * H`), whose sizes it
cancels: up to bounded factors (`2 * B * H` against `// (B * H)`), one by one
(`(B, H, 32768 // B)` grows as `H` alone; `(B, H, T, 32768 // B)` as `H * T`, reported), only in an axis
that is exactly a product of them (not `B * H + T`, which may be far more than `B * H`) and
by a divisor that is one too (not `B * H - T`); a budget over other sizes (`32768 // T`)
cancels nothing, nor does one that is at least 1, `max(1, C // E)` or `triton.cdiv(C, E)`:
it stays 1 once `E` passes `C`, and the other axes launch all they multiply;

- sizes combined, in one axis, with values the module does not show (a
parameter no caller passes and with no default (its annotation, `group: int`, shows no value;
`group: int = 48` is 48), a helper such as a grid-limiting tile chooser: `min(B * H,
cap())`, `B * H // split()` may be sized to keep the product small);

- grids that may be one
of several (a `grid` name assigned, or a `def grid(meta):` written, in an `if` and in its
`else`, or in a loop after the launch);

- launches of a module that sets `TRITON_ALL_BLOCKS_PARALLEL` to `"1"` or
`"true"` (`os.environ[...] = "1"`, `os.environ.setdefault(...)`, `os.environ.update(...)`, `os.putenv(...)`,
`mock.patch.dict(os.environ, {...})`) at module level or in the launching function, or in a
context manager of the module (`@contextlib.contextmanager`) before its `yield`, or in the
`__enter__` of a class of the module, entered by a `with` around the launch, however deep (an
`if`, a loop or another `with` between), or around every call of the launching function in the
module (`with _all_blocks_parallel(): k[grid](...)`, `with AllBlocksParallel():`, also through
a name bound once to it, `cm = AllBlocksParallel()`, then `with cm:`; one setting it only after
its `yield`, or in `__exit__`, does not count);

- launches that run only on another platform than Ascend
(in an arm requiring `x.device.type == "cuda"`, `current_platform.is_cuda()` or `is_hip()`, after an
early exit when such a test fails, in a CustomOp's `forward_cuda`: the launch-options rule
ASC001 lists the forms).
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property, reduce
from math import prod
from typing import Literal
from weakref import WeakKeyDictionary

import libcst as cst

from ascend_lint.arithmetic import ceiling_division
from ascend_lint.host import (
    ORDERINGS,
    SIZES_HELD,
    BoundedSizes,
    CallSite,
    Grid,
    HostIndex,
    Launch,
    Scope,
    all_params,
    holding_cases,
    links,
    names_read,
    passed_for,
    while_counters,
    without_int_conversion,
)
from ascend_lint.imports import dotted_name, int_literal, str_literal
from ascend_lint.nodes import (
    NAMES_FOLLOWED,
    one_line,
    ordered_sides,
    walk,
)
from ascend_lint.prefilter import KERNEL_TOKENS, LAUNCH
from ascend_lint.rule import Kernel, ModuleContext, Report, Rule

# builtins that order nothing (`len`, `tuple`, `isinstance`; `all` / `any`, whose result is
# their items' truth: the items are the tests): none chooses a variant by the sizes it is given
_ORDER_NOTHING = frozenset(name for name in dir(builtins) if not name.startswith("_")) - {"min", "max", "sorted"}
# builtins whose items are those of what they are given (`enumerate(range(0, n, CH))`)
_PASSING_ITEMS = frozenset({"enumerate", "zip", "reversed", "sorted", "list", "tuple", "iter"})
MAX_PROGRAMS = 65535  # triton-ascend's launcher: `grid should be less than 65536!`
_CALLERS_UP = 3  # callers a launching function's guards are looked for in, through functions passing sizes on
_FUNCTIONS_FOLLOWED = 4  # functions of the module a call that may order sizes is followed into (`_may_order`)
# The launcher checks the grid only while this is "0" (its default); the compiler maps a larger
# grid onto the cores only when it is "1" or "true" (any case).
LIMIT_SWITCH = "TRITON_ALL_BLOCKS_PARALLEL"
LIMIT_LIFTED = ("1", "true")
MESSAGE = (
    "grid can exceed {limit} programs: `{grid}` grows as {sizes} and triton-ascend refuses grids over {limit} "
    "at launch; chunk the launch on the host (`*_OFFSET`) or use a 1-D core-grid task loop"
)
KNOWN_MESSAGE = (
    "grid exceeds {limit} programs: `{grid}` launches {sizes} and triton-ascend refuses grids over {limit} "
    "at launch; chunk the launch on the host (`*_OFFSET`) or use a 1-D core-grid task loop"
)


class GridOver65535(Rule):
    CODE = "ASC010"
    NAME = "grid-over-65535"
    SUMMARY = "A launch grid multiplying runtime sizes (or counts fixed too large) can pass 65535 programs (refused at launch)"
    NO_FIX = "host chunking and a 1D core grid both change the kernel's indexing"
    NO_CONFIRM = "the grid is checked statically against the launcher's own limit: triton-ascend's launcher refuses more than 65535 programs, as tests/test_runtime_compile.py shows"
    # a kernel of the module, or the launch of one it imports (a count over the limit needs no size)
    REQUIRES_TOKENS = ((*KERNEL_TOKENS, LAUNCH),)

    VALID = (
        # counts the module fixes, within the limit; one size times less than half of it
        """
@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)

ROWS = 255

def run(x):
    k[(257, ROWS)](x, BLOCK=64)
    k[(triton.cdiv(65535 * 64, 64),)](x, BLOCK=64)
    k[(x.shape[0], 4000)](x, BLOCK=64)
""",
        # the chunking loop calls a wrapper that launches
        """
@triton.jit
def k(x, T, NT_OFFSET, BT: tl.constexpr):
    i_t, i_b = tl.program_id(0) + NT_OFFSET, tl.program_id(1)
    tl.store(x + i_b * T + i_t * BT + tl.arange(0, BT), 0.0)

def chunked(x, BT=64):
    B, T = x.shape
    NT = triton.cdiv(T, BT)
    max_nt = max(1, 65535 // B)
    for nt_off in range(0, NT, max_nt):
        _launch(x, min(max_nt, NT - nt_off), B, T, nt_off, BT)

def _launch(x, nt_len, B, T, nt_off, BT):
    k[(nt_len, B)](x, T, nt_off, BT=BT)
""",
        # a size pinned by an equality: 24 heads times the sequences is one size
        """
@triton.jit
def heads(x, o, HV: tl.constexpr):
    tl.store(o + tl.program_id(2), tl.load(x + tl.program_id(2)))

def launch(x, v, cu_seqlens):
    if v.shape[2] != 24:
        raise ValueError("the kernel is tuned for 24 value heads")
    HV = v.shape[2]
    N = len(cu_seqlens) - 1
    heads[(1, 1, N * HV)](x, x, HV=HV)
""",
        # one axis capped at the limit: at most 65535 programs
        """
@triton.jit
def rows_kernel(x, n, ROWS: tl.constexpr):
    for row in range(tl.program_id(0), n, tl.num_programs(0)):
        tl.store(x + row, 0.0)

def clear(x):
    total = x.shape[0] * x.shape[1]
    rows_kernel[(min(total, 65535),)](x, total, ROWS=1)
""",
        # a size a recursive helper returns: unknown (read once, not once per call it makes)
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(0) * T + tl.arange(0, BT), 0.0)

def _tiles(n):
    return _tiles(n - 1) + _tiles(n - 2) + _tiles(n - 3) if n > 2 else n

def recursive(x):
    B, T = x.shape
    k[(_tiles(B), _tiles(T) * _tiles(B))](x, T, BT=64)
""",
        # a block chosen at least the size in every arm: one program per batch
        """
@triton.jit
def row_sum(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T, tl.sum(tl.load(x + tl.program_id(1) * T + tl.arange(0, BT)), axis=0))

def total(x):
    B, T = x.shape
    bt = triton.next_power_of_2(T) if T <= 4096 else T
    row_sum[(triton.cdiv(T, bt), B)](x, T, BT=bt)
    bt = 1 << (T - 1).bit_length()  # the power of two above `T`, written another way
    row_sum[(triton.cdiv(T, bt), B)](x, T, BT=bt)
""",
        # a grid function shrinking its grid in a loop until it fits
        """
@triton.jit
def zero(x, n, BLOCK_B: tl.constexpr, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * n + tl.program_id(1) * BLOCK + tl.arange(0, BLOCK), 0.0)

def run(x):
    batch, n = x.shape

    def grid(meta):
        rows = triton.cdiv(batch, meta["BLOCK_B"])
        cols = triton.cdiv(n, meta["BLOCK"])
        while rows * cols >= 65536:
            rows = rows // 2
        return (rows, cols)

    zero[grid](x, n, BLOCK_B=1, BLOCK=1024)
""",
        # a launch left after an unconditional `raise` never runs
        """
@triton.jit
def scale_rows(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def scale(x, persistent=True):
    B, T, H = x.shape
    if persistent:
        return x * 2
    raise NotImplementedError("only the persistent path is supported")
    scale_rows[(triton.cdiv(T, 64), B * H)](x, T, BT=64)
""",
        """
@triton.jit
def expand(x, T, BM: tl.constexpr):
    tl.store(x + tl.program_id(0) * T + tl.program_id(1) * BM + tl.arange(0, BM), 0.0)

def _grid_fits(bh, T, BM):
    return bh * triton.cdiv(T, BM) <= 65535

def _expand(x, bh: int, T: int, BM: int):  # its only caller checks the grid first
    expand[(bh, triton.cdiv(T, BM))](x, T, BM=BM)

def backward(x, BM=64):
    B, H, T = x.shape
    if x.dtype == torch.float32 and _grid_fits(B * H, T, BM):
        _expand(x, B * H, T, BM)
        _expand_dense(x, B * H, T, BM)

def _expand_dense(x, bh, T, BM):  # a function between the checked call and the launch
    _launch_expand(x.contiguous(), bh, T, BM)

def _launch_expand(x, bh, T, BM):
    expand[(bh, triton.cdiv(T, BM))](x, T, BM=BM)
""",
        """
@triton.jit
def row_sums(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(1) * n + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) * 2)

def _launch(x, grid):  # the grid is the caller's, the arguments the helper's own
    n = x.shape[-1]
    row_sums[grid](x, n, BLOCK=64)

def fwd(x):
    _launch(x, (16, 8))

def _checked(grid, *args, **kwargs):  # bounds whatever grid it is passed
    if grid[0] * grid[1] > 65535:
        raise ValueError("grid too large")
    return row_sums[grid](*args, **kwargs)

def bwd(x):
    B, T, H = x.shape
    _checked((triton.cdiv(T, 64), B * H), x, T, BLOCK=64)
""",
        """
@triton.jit
def k(x, T, BH_OFFSET, BT: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1) + BH_OFFSET
    tl.store(x + i_bh * T + i_t * BT + tl.arange(0, BT), 0.0)

@triton.jit
def core_grid(x, task_num, num_core, BT: tl.constexpr):
    for task in tl.range(tl.program_id(0), task_num, num_core):
        tl.store(x + task * BT + tl.arange(0, BT), 0.0)

def run(x, max_bh, num_core):
    B, T, H = x.shape
    NT = triton.cdiv(T, 64)
    for bh_off in range(0, B * H, max_bh):
        k[(NT, min(max_bh, B * H - bh_off))](x, T, bh_off, BT=64)
    k[(NT,)](x, T, 0, BT=64)
    k[(min(NT, 1024), 4)](x, T, 0, BT=64)
    core_grid[(num_core,)](x, NT * B * H, num_core, BT=64)  # a task loop on the core grid

def capped(x, cu_seqlens, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    k[(min(B * H, cap()), NT)](x, T, 0, BT=BT)
    k[(NT, B * H // split())](x, T, 0, BT=BT)
    N = B if cu_seqlens is None else 1
    k[(N, NT)](x, T, 0, BT=BT)
    if cu_seqlens is None:
        grid = (NT, B * H)
    else:
        grid = (NT, 1)
    k[grid](x, T, 0, BT=BT)
    if cu_seqlens is None:
        def grid(meta):
            return (NT, B * H)
    else:
        def grid(meta):
            return (NT, 1)
    k[grid](x, T, 0, BT=BT)

def budget_in_a_helper(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    if too_many_programs(NT, B * H):
        return run_chunked(x)
    k[(NT, B * H)](x, T, 0, BT=BT)

def diagonal(x, BT=64):
    N, M = x.shape
    k[(triton.cdiv(min(N, M), BT),)](x, N, 0, BT=BT)  # the smaller of two sizes: one size

def budget_tested(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    if NT * B * H <= 65535:
        k[(NT, B * H)](x, T, 0, BT=BT)
    if not NT * B * H > 65535:
        k[(NT, B * H)](x, T, 0, BT=BT)
    else:
        run_chunked(x)
    if x.is_contiguous() and B * H < 1024:  # one part of a holding `and` bounds the sizes
        k[(NT, B * H)](x, T, 0, BT=BT)
    if not x.is_contiguous() or NT * B * H > 65535:  # the `or` fails here: each part fails
        return run_chunked(x)
    k[(NT, B * H)](x, T, 0, BT=BT)

def _fits(q):
    return q.shape[0] * q.shape[1] <= 65535

def budget_in_a_helper_of_the_module(q, BT=64):
    if not _fits(q):
        return run_chunked(q)
    tokens, heads, dim = q.shape
    k[(tokens, heads)](q, dim, 0, BT=BT)

def budget_passed(x, budget, BT=64):
    B, T, H = x.shape
    if B * H > budget:  # a budget the module does not show may bound the sizes
        return run_chunked(x)
    k[(triton.cdiv(T, BT), B * H)](x, T, 0, BT=BT)

def _path(T, B):
    return "chunked" if T * B > 65535 else "whole"

def path_chosen(x, BT=64):
    B, T, H = x.shape
    if _path(T, B * H) == "chunked":  # what a function of the module that orders sizes chose
        return run_chunked(x)
    k[(triton.cdiv(T, BT), B * H)](x, T, 0, BT=BT)

BUDGET = 65535

def use_chunked(T, B, H):
    return triton.cdiv(T, 64) * B * H > BUDGET  # a module constant bounds the sizes passed

def _split_needed(x):
    B, T, H = x.shape
    return use_chunked(T, B, H)  # calls a function of the module that orders them

def _small(n):
    return min(n, 4096) == n

def budget_of_the_module(x, BT=64):
    B, T, H = x.shape
    if use_chunked(T, B, H):
        return run_chunked(x)
    k[(triton.cdiv(T, BT), B * H)](x, T, 0, BT=BT)
    if not _split_needed(x):
        k[(triton.cdiv(T, BT), B * H)](x, T, 0, BT=BT)
    if _small(B * H):
        k[(triton.cdiv(T, BT), B * H)](x, T, 0, BT=BT)

def budget_raised(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    if NT * B * H > 65535:
        raise ValueError("grid too large: use the chunked path")
    k[(NT, B * H)](x, T, 0, BT=BT)

def _check_grid(n_programs):  # raises on what it is passed: the test with the call's argument
    if n_programs > BUDGET:
        raise ValueError("grid too large for Ascend")

def _assert_grid(n_programs):
    assert n_programs <= 65535, "grid too large"

def budget_checked(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    _check_grid(NT * B * H)
    k[(NT, B * H)](x, T, 0, BT=BT)

def budget_asserted(x, BT=64):
    B, T, H = x.shape
    _assert_grid(triton.cdiv(T, BT) * B * H)
    k[(triton.cdiv(T, BT), B * H)](x, T, 0, BT=BT)

def two_segments(x, text_idx, vae_idx):
    m_text, m_vae = text_idx.shape[0], vae_idx.shape[0]
    k[(m_text + m_vae,)](x, m_text, 0, BT=64)  # a sum of two sizes is one size

def clamped(x, BT=64):
    B, T, H = x.shape
    T = min(T, 4096)  # an update that caps the size
    k[(triton.cdiv(T, BT), B)](x, T, 0, BT=BT)

def clamped_in_an_arm(x, BT=64):
    B, T, H = x.shape
    if B * H > 65535:  # the product's arm runs only below the limit
        rows = 65535
    else:
        rows = B * H
    k[(rows,)](x, T, 0, BT=BT)
""",
        """
import os

os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"  # the launcher's grid check is off for the process

@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)
""",
        """
from .kernels import chunk_kernel

def run(x, chunk_kernel, BT=64):  # a parameter hides the import: what its callers pass is unknown
    B, T, H = x.shape
    chunk_kernel[(B, H)](x, T, BT=BT)

def forward(x, layers):
    B, T, H = x.shape
    return layers[B * T](x)  # not a name the module imports
""",
        # entries of a namespace or dict the module does not show to hold a kernel of it
        """
@triton.jit
def _fill(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def _kernels():
    return types.SimpleNamespace(fill=_fill)

def _loaded():
    return load_namespace()

k = _kernels()

def passed(x, k, BT=64):  # a parameter: what its callers pass is unknown
    B, T, H = x.shape
    k.fill[(B, H)](x, T, BT=BT)

def unknown(x, fast, BT=64):
    k = _kernels() if fast else _loaded()
    B, T, H = x.shape
    k.fill[(B, H)](x, T, BT=BT)
    k = _loaded()
    k.fill[(B, H)](x, T, BT=BT)

def splatted(x, extra, BT=64):
    table = {"fill": _fill, **extra}  # `extra` may replace it
    B, T, H = x.shape
    table["fill"][(B, H)](x, T, BT=BT)
""",
        """
import os
from os import environ

@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    os.environ.setdefault("TRITON_ALL_BLOCKS_PARALLEL", "1")
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def run_too(x, BT=64):
    environ["TRITON_ALL_BLOCKS_PARALLEL"] = "true"
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def run_updated(x, BT=64):
    os.environ.update(TRITON_ALL_BLOCKS_PARALLEL="1")
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def run_updated_too(x, BT=64):
    os.environ.update({"TRITON_ALL_BLOCKS_PARALLEL": "1", "OTHER": "0"})
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)
""",
        # a context manager of the module setting the switch before its `yield`, entered around
        # the launch or around every call of the function launching; `mock.patch.dict(os.environ, ...)`
        """
import contextlib
import os
from contextlib import contextmanager
from unittest import mock

@contextlib.contextmanager
def _all_blocks_parallel():
    previous = os.environ.get("TRITON_ALL_BLOCKS_PARALLEL")
    os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("TRITON_ALL_BLOCKS_PARALLEL", None)
        else:
            os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = previous

@contextmanager
def _lifted():
    with mock.patch.dict(os.environ, {"TRITON_ALL_BLOCKS_PARALLEL": "1"}):
        yield

@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    B, T, H = x.shape
    with _all_blocks_parallel():
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def _launch(x, BT=64):
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)

def forward(x):
    with torch.no_grad(), _lifted():
        _launch(x)

def patched(x, BT=64):
    B, T, H = x.shape
    with mock.patch.dict(os.environ, TRITON_ALL_BLOCKS_PARALLEL="1"):
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)
""",
        # chunking loops: the grid reads the loop variable through a name bound from it, an
        # offset argument reads it, a wrapper is passed it for a grid size or an offset
        """
@triton.jit
def k(x, T, BH_OFFSET, BT: tl.constexpr):
    tl.store(x + (BH_OFFSET + tl.program_id(1)) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def chunked(x, BT=64, max_bh=1024):
    B, T, H = x.shape
    for bh_off in range(0, B * H, max_bh):
        n = min(max_bh, B * H - bh_off)
        k[(triton.cdiv(T, BT), n)](x, T, BH_OFFSET=bh_off, BT=BT)

def offset_only(x, BT=64):
    B, T, H = x.shape
    for bh_off in range(0, B * H, 1024):
        k[(triton.cdiv(T, BT), H)](x, T, bh_off, BT=BT)

def _launch(x, T, rows, BT):
    k[(triton.cdiv(T, BT), rows)](x, T, 0, BT=BT)

def _launch_at(x, T, BH, off, BT):
    k[(triton.cdiv(T, BT), BH)](x, T, BH_OFFSET=off, BT=BT)

def run(x, BT=64):
    B, T, H = x.shape
    for start in range(0, B * H, 4096):
        _launch(x, T, min(4096, B * H - start), BT)
    for off in range(0, B * H, 4096):
        _launch_at(x, T, 4096, off, BT)
""",
        # a loop chunking one axis of three whose chunk bounds the product of the other two; one
        # chunking a factor of an axis, the other factors one size
        """
@triton.jit
def k(x, m, n, TM: tl.constexpr):
    tl.store(x + tl.program_id(1) * TM + tl.arange(0, TM), 0.0)

def by_budget(A):
    B, m, n = A.shape
    per = max(1, 65535 // (triton.cdiv(m, 64) * triton.cdiv(n, 64)))
    for b0 in range(0, B, per):
        k[(min(per, B - b0), triton.cdiv(m, 64), triton.cdiv(n, 64))](A, m, n, TM=64)

def rows_of_a_chunk(A):
    B, m, n = A.shape
    for b0 in range(0, B, 16):
        k[(min(16, B - b0) * triton.cdiv(m, 64), 4)](A, m, n, TM=64)
""",
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

_TILE = (64, 128)

def read_back_settings(x, num_splits, BT=64):
    splits = int(num_splits.item())  # a scalar tensor's value: a setting, not a size
    k[(splits, x.shape[0])](x, x.shape[1], BT=BT)

def reduced(x, dim, BT=64):
    shape = list(x.shape)
    shape[dim] = 1  # the product is of the other extents: one of them for a 2-D `x`
    k[(math.prod(shape),)](x, 1, BT=BT)

def rows_over_others(x, w, n, BT=64):
    H = w.shape[0]
    k[(x.numel() // (H * x.shape[-1]), H)](x, 1, BT=BT)  # over another tensor's extent: unknown
    k[(x.numel() // (n * x.shape[-1]), x.shape[0])](x, 1, BT=BT)  # over a value no caller shows

def retiled(x):
    bm, bn = _TILE  # the module's tile, or the one it reads from its settings
    k[(triton.cdiv(x.shape[1], bn), x.shape[0])](x, 1, BT=bn)

if tiles_configured():
    _TILE = configured_tile()
""",
        # a product over a loop may be one extent; a launcher that may be the caller's
        """
@triton.jit
def runs(out, x, chunk, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * chunk + tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs))

def narrow(x, out, dim):
    pre = 1
    for d in x.shape[:dim]:  # one size: `dim` may be 1
        pre *= d
    launcher = runs[(pre, 4)]
    launcher(out, x, x.shape[-1], BLOCK=2048)

def cached(x, out, launcher=None):
    rows, chunk = x.shape
    if launcher is None:  # one of two launchers: the grid may be the caller's
        launcher = runs[(rows, chunk)]
    launcher(out, x, chunk, BLOCK=1)
""",
        # what a tensor is allocated with is a size only when read from a container the module
        # does not show: a bounded value stays bounded, a parameter or an attribute unknown
        """
NUM_SPLITS = 16

@triton.jit
def tiles(out, L, TILE: tl.constexpr):
    rows = tl.program_id(0) * TILE + tl.arange(0, TILE)
    tl.store(out + rows * L + tl.program_id(1), 0.0)

def split_rows(x, problem, device):
    T = x.shape[0]
    partial = torch.empty(NUM_SPLITS, T)  # a constant allocated stays bounded
    tiles[(NUM_SPLITS, T)](partial, T, TILE=64)
    cores = driver.active.utils.get_device_properties(device)["num_aicore"]
    per_core = torch.zeros((cores, T))  # and so does a core count
    tiles[(cores, T)](per_core, T, TILE=64)
    L = min(problem["total_s"], 4096)  # and a capped item
    window = torch.empty(L, L)
    tiles[(triton.cdiv(L, 64), L)](window, L, TILE=64)
    splits = problem["splits"]  # an item sizing no tensor: a setting
    tiles[(splits, T)](x, T, TILE=64)

def chunked(problem, tile=128):
    L = problem["total_s"]
    out = torch.empty(L, L)
    n_tiles = triton.cdiv(L, tile)
    for row in range(0, n_tiles, 256):  # the host chunks the grid
        tiles[(min(256, n_tiles - row), n_tiles)](out, L, TILE=tile)

def _window(L: int):
    window = torch.empty(L, L)
    tiles[(triton.cdiv(L, 64), L)](window, L, TILE=64)

def window(problem):
    _window(min(problem["total_s"], cap()))  # a caller's value that may be capped: unknown

def attention(q, num_heads: int, pool):
    T = q.shape[0]
    out = torch.empty(T, num_heads, 128)  # a model's head count as often as a length: unknown
    tiles[(T, num_heads)](out, T, TILE=128)
    dim = pool.head_dim
    flat = q.new_empty(T, dim)  # an attribute too
    tiles[(T, triton.cdiv(dim, 64))](flat, dim, TILE=64)
""",
        # a bound on the extent a grid's name is bound to, before or after it is bound
        """
@triton.jit
def rows_kernel(x, y, m, n, BLOCK_M: tl.constexpr, NUM_BLOCKS_N: tl.constexpr):
    rows = (tl.program_id(0) // NUM_BLOCKS_N) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(y + rows, tl.load(x + rows, mask=rows < m), mask=rows < m)

def small_m(x, w, y):
    if x.shape[0] > 128:  # `m` below: at most 128 rows, one block of them
        raise ValueError("M <= 128 only")
    m, k = x.shape
    n = w.shape[0]
    block_m = min(triton.next_power_of_2(m), 128)
    num_blocks_m = triton.cdiv(m, block_m)
    num_blocks_n = triton.cdiv(n, 128)
    rows_kernel[(num_blocks_m * num_blocks_n,)](x, y, m, n, BLOCK_M=block_m, NUM_BLOCKS_N=num_blocks_n)

def small_m_tested(x, w, y):
    m = x.size(0)
    n = w.shape[0]
    if x.shape[0] <= 128:
        rows_kernel[(m, triton.cdiv(n, 128))](x, y, m, n, BLOCK_M=1, NUM_BLOCKS_N=1)

def small_m_sized(x, w, y):
    if x.size(0) > 128:
        return None
    shape = x.shape
    m, n = shape[0], w.shape[0]
    rows_kernel[(m, triton.cdiv(n, 128))](x, y, m, n, BLOCK_M=1, NUM_BLOCKS_N=1)

def small_m_by_keyword(x, w, y):  # torch's `dim=` names the same extent
    m = x.size(dim=0)
    if x.shape[0] <= 128:
        rows_kernel[(m, triton.cdiv(w.shape[0], 128))](x, y, m, w.shape[0], BLOCK_M=1, NUM_BLOCKS_N=1)
""",
        # tests before the launch bounding its program count, or all but one of the sizes it
        # multiplies: an early exit, or an `assert` (it holds after it)
        """
@triton.jit
def heads(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def asserted(x, BT=64):
    B, T, H = x.shape
    assert T * B * H <= 65535
    heads[(T, B * H)](x, T, BT=BT)

def sequences_and_heads(q, cu_seqlens, BK=64):
    B, T, H, K = q.shape
    N = B if cu_seqlens is None else len(cu_seqlens) - 1
    if N * H > 65535:  # bounds `N` and `H`: `K/BK` is one size
        raise ValueError("too many sequences and heads")
    heads[(triton.cdiv(K, BK) * N * H,)](q, T, BT=BK)

def few_heads(x, BT=64):
    B, T, H = x.shape
    assert 0 < H <= 64 and B <= 16  # both hold: `T/BT` is the one size left
    heads[(B, H, triton.cdiv(T, BT))](x, T, BT=BT)

def batch_or_heads(x, BT=64):
    B, T, H = x.shape
    if B > 16 and H > 64:  # one of `B`, `H` is bounded after it: either way one size is left
        raise ValueError("batch or heads must be small")
    heads[(B, H)](x, T, BT=BT)

def grouped(x, group_size=None, BLOCK_M=64):
    M, N = x.shape
    if group_size is None:
        group_size = N
    ngroups = N // group_size  # a size over a size: unknown (one group when `group_size = N`)
    if group_size > 4096:  # bounds the divisor: `ngroups` stays unknown
        raise ValueError("group too large")
    heads[(triton.cdiv(M, BLOCK_M), ngroups)](x, M, BT=BLOCK_M)
""",
        # a budget axis: a bounded count divided by the other axes' sizes keeps the product under it
        """
@triton.jit
def block_mean(x, out, L: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    n_blocks = (L + BLOCK - 1) // BLOCK
    for blk in tl.range(tl.program_id(1), n_blocks, tl.num_programs(1)):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + row * n_blocks + blk, tl.sum(tl.load(x + row * L + offs, mask=offs < L), axis=0))

def mean_pool(x, BLOCK=64):
    B, H, L = x.shape
    n_blocks = triton.cdiv(L, BLOCK)
    out = torch.empty((B, H, n_blocks), device=x.device, dtype=x.dtype)
    block_mean[(B * H, min(n_blocks, 32768 // (B * H)))](x, out, L, BLOCK)
    block_mean[(2 * B * H, 32768 // B // H)](x, out, L, BLOCK)  # bounded factors: at most 65536 programs
    per_block = 4096 // (H * n_blocks)
    block_mean[(n_blocks, H, min(B, per_block))](x, out, L, BLOCK)
    block_mean[_pooled(n_blocks, H, B, per_block)](x, out, L, BLOCK)  # the same grid, made by a helper
    block_mean[(B, H, 32768 // B)](x, out, L, BLOCK)  # `B` cancels: `H` is one size

def _pooled(n_blocks, H, B, per_block):
    return (n_blocks, H, min(B, per_block))
""",
        # guards in the block around the launch (an arm, a `with`), or in a `with` before it; a
        # guard on a block at least the size it is made of
        """
@triton.jit
def heads(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def by_mode(x, mode, BT=64):
    B, T = x.shape
    if mode == "prefill":
        if T > 4096:  # runs before the launch in this arm
            raise ValueError("T <= 4096 only")
        heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)

def no_grad(x, BT=64):
    B, T = x.shape
    with torch.no_grad():
        assert T <= 4096
        heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)

def checked_first(x, BT=64):
    B, T = x.shape
    with torch.no_grad():  # a `with` block runs its body
        if T > 4096:
            raise ValueError("T <= 4096 only")
    heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)

def whole_rows(x):
    B, T = x.shape
    BT = max(triton.next_power_of_2(T), 16)  # at least `T`: bounding it bounds `T`
    if BT > 8192:
        raise ValueError("T <= 8192 only")
    heads[(triton.cdiv(T, 64), B)](x, T, BT=64)

def short_blocks(x):
    B, T = x.shape
    BT = triton.next_power_of_2(T)
    if T < 16:  # a bounded block only where the test bounds `T`: one program
        BT = 16
    heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)

def every_arm_leaves(x, strict, BT=64):
    B, T = x.shape
    if T > 4096:  # an exit whichever arm runs
        if strict:
            raise ValueError("T <= 4096 only")
        else:
            return None
    heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)
""",
        # a grid bound in each arm, one of them the core grid: the arm large sizes may take
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def persistent_when_large(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    if NT * B * H > 65535:
        grid = (triton.runtime.driver.active.utils.get_aivector_core_num(),)
    else:
        grid = (NT, B * H)
    k[grid](x, T, BT=BT)
""",
        # a test raising a small block is no clamp: the block stays at least the size, one
        # program; a clamp capping a product of sizes (`min(B * H, 4096)`) bounds it
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.arange(0, BT), 0.0)

def floored(x):
    B, T = x.shape
    BT = triton.next_power_of_2(T)
    if BT < 16:
        BT = 16
    k[(triton.cdiv(T, BT), B)](x, T, BT=BT)

def capped_rows(x):
    B, T, H = x.shape
    rows = B * H
    if rows > 4096:
        rows = 4096
    k[(rows, T)](x, T, BT=64)
""",
        # an `assert` beside the launch (`;`) checks before it, as on a line of its own
        """
@triton.jit
def k(x, y, BT: tl.constexpr):
    o = tl.program_id(0) * BT + tl.arange(0, BT)
    tl.store(y + o, tl.load(x + o))

def checked(x, y, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    assert NT * B * H <= 65535, "grid too large"; k[(NT, B * H)](x, y, BT=BT)
""",
        # a size the caller bounds before passing it, a `torch._check` of one, an `else:` exiting
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def _launch(x, B, spatial_dim, BT=64):
    k[(spatial_dim, B)](x, spatial_dim, BT=BT)

def forward(x):
    B, spatial_dim = x.shape
    if spatial_dim >= 65536:
        raise ValueError("spatial_dim must fit one grid axis")
    _launch(x, B, spatial_dim)

def checked(x, BT=64):
    B, T = x.shape
    torch._check(T < 65536, lambda: "T too long")
    k[(T, B)](x, T, BT=BT)

def else_raises(x, BT=64):
    B, T = x.shape
    if T < 65536:
        grid = (T, B)
    else:
        raise ValueError("T too long")
    k[grid](x, T, BT=BT)
""",
        # a class of the module setting the switch in `__enter__`, entered by a `with` further up
        """
import os

class AllBlocksParallel:
    def __enter__(self):
        self._previous = os.environ.get("TRITON_ALL_BLOCKS_PARALLEL")
        os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
        return self

    def __exit__(self, *exc):
        os.environ.pop("TRITON_ALL_BLOCKS_PARALLEL", None)

@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    B, T, H = x.shape
    with AllBlocksParallel():
        if x.is_contiguous():
            k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)
""",
    )
    INVALID = (
        # a host loop chunking one axis (the batch): the other two still grow as m/64 * n/64 in
        # each trip (FlagGems' `linalg_qr.py`), and so do the factors of an axis it leaves whole
        """
@triton.jit
def k(x, m, n, TM: tl.constexpr):
    tl.store(x + tl.program_id(1) * TM + tl.arange(0, TM), 0.0)

def _batch_chunks(B, step=40):
    for b0 in range(0, B, step):
        yield b0, min(step, B - b0)

def triu_copy(A):
    B, m, n = A.shape
    for b0, bn in _batch_chunks(B):
        k[(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))](A[b0:], m, n, TM=64)  # expect

def rows_of_a_chunk(A):
    B, m, n = A.shape
    for b0 in range(0, B, 16):
        k[(min(16, B - b0) * triton.cdiv(m, 64), triton.cdiv(n, 64))](A, m, n, TM=64)  # expect
""",
        # a list grid appended to under a truth test: that path launches `n/BLOCK * B` programs
        """
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(1) * n + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)

def run(x, batched, BLOCK=64):
    B, n = x.shape
    grid = [triton.cdiv(n, BLOCK)]
    if batched:
        grid.append(B)
    k[tuple(grid)](x, n, BLOCK=BLOCK)  # expect
""",
        # floors written `!= 0`, `== 0` failing or `or`: no cap, the rows are the batch's
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    n, T = x.shape
    B = n if n != 0 else 1
    k[(B, T)](x, T, BT=BT)  # expect
    k[(n or 1, T)](x, T, BT=BT)  # expect
""",
        # counts the module fixes, over the limit: refused at every launch, in a loop too; a count
        # of half the limit or more times any size
        """
@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)

N_ROWS = 1 << 20

def rows(x):
    k[(triton.cdiv(N_ROWS, 16),)](x, BLOCK=16)  # expect
    for _ in range(2):
        k[(256, 512)](x, BLOCK=64)  # expect

def heads(x):
    k[(x.shape[0], 40000)](x, BLOCK=64)  # expect

def sweep(x):
    for n in (1, 100000):  # each trip launches its item's grid
        k[(n, 8)](x, BLOCK=64)  # expect
""",
        # a name holding the core count, then rebound to a size before the launch
        """
@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)

def rows(x):
    blocks = triton.runtime.driver.active.utils.get_device_properties(0)["num_aicore"]
    k[(blocks,)](x, BLOCK=64)
    blocks = x.shape[0] * x.shape[1]
    k[(blocks,)](x, BLOCK=64)  # expect
""",
        # a grid bound in each arm (fla's varlen and dense launches): whichever runs, it grows
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def varlen_or_dense(x, cu_seqlens, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    if cu_seqlens is None:
        grid = (NT, B * H)
    else:
        grid = (NT, (len(cu_seqlens) - 1) * H)
    k[grid](x, T, BT=BT)  # expect
""",
        # the block a function of the module picks, bounded on every return
        """
@triton.jit
def k(x, BLOCK_N: tl.constexpr):
    tl.store(x + tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N), 0.0)

def _pick_block_n(inter):
    if inter % 2048 == 0:
        return 2048
    return min(2048, triton.next_power_of_2(inter))

def run(x):
    rows, inter = x.shape
    bn = _pick_block_n(inter)
    k[(rows * triton.cdiv(inter, bn),)](x, BLOCK_N=bn)  # expect
""",
        # rows counted on a contiguous copy of the input: the same extents
        """
@triton.jit
def k(x, o, inter, n_col_blocks, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    row = pid // n_col_blocks
    col = (pid - row * n_col_blocks) * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(o + row * inter + col, tl.load(x + row * inter + col, mask=col < inter), mask=col < inter)

def gelu(input):
    last = input.shape[-1]
    x = input if input.is_contiguous() else input.contiguous()
    num_tokens = x.numel() // last
    n_col_blocks = triton.cdiv(last, 2048)
    out = torch.empty((num_tokens, last), dtype=x.dtype, device=x.device)
    x = x if x.is_contiguous() else x.contiguous()  # a copy of itself keeps its extents
    k[(num_tokens * n_col_blocks,)](x, out, last, n_col_blocks, BLOCK_N=2048)  # expect
""",
        # rows per program chosen small in the arm where the rows are many (FlagGems-vllm's
        # paged_scatter): the grid grows as n/8 there
        """
@triton.jit
def scatter_rows(c, v, n, inner, ROWS: tl.constexpr, BI: tl.constexpr):
    o = tl.program_id(1) * BI + tl.arange(0, BI)
    for i in tl.static_range(ROWS):
        r = tl.program_id(0) * ROWS + i
        tl.store(c + r * inner + o, tl.load(v + r * inner + o, mask=o < inner), mask=o < inner)

def scatter(cache, values):
    n, inner = values.shape
    bi = min(triton.next_power_of_2(inner), 512)
    rows = 8 if n > 8 else triton.next_power_of_2(max(n, 1))
    scatter_rows[(triton.cdiv(n, rows), triton.cdiv(inner, bi))](cache, values, n, inner, ROWS=rows, BI=bi)  # expect
""",
        # a budget that cannot cancel the other axes: over another size, at least 1 (`max(1, ...)`,
        # `triton.cdiv`: still 1 when `B * H` passes it), an axis that is no product of its sizes
        """
@triton.jit
def block_mean(x, out, L: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + tl.program_id(0) * L + offs, tl.load(x + tl.program_id(0) * L + offs, mask=offs < L))

def mean_pool(x, BLOCK=64):
    B, H, L = x.shape
    n_blocks = triton.cdiv(L, BLOCK)
    out = torch.empty_like(x)
    block_mean[(B * H, n_blocks)](x, out, L, BLOCK)  # expect
    block_mean[(B * H, min(n_blocks, 32768 // L))](x, out, L, BLOCK)  # expect
    block_mean[(B * H, max(1, 32768 // (B * H)))](x, out, L, BLOCK)  # expect
    block_mean[(B * H, triton.cdiv(32768, B * H))](x, out, L, BLOCK)  # expect
    block_mean[(B * H + L, 32768 // (B * H))](x, out, L, BLOCK)  # expect
    block_mean[(B * H, 32768 // (B * H - L))](x, out, L, BLOCK)  # expect
    block_mean[(B, H, n_blocks, 32768 // B)](x, out, L, BLOCK)  # expect
""",
        # tiles from a power of two of a bound, or a shifted literal, are bounded
        """
@triton.jit
def copy_kernel(s, o, T, BLOCK_T: tl.constexpr):
    tl.store(o + tl.program_id(1) * T + tl.arange(0, BLOCK_T), tl.load(s + tl.arange(0, BLOCK_T)))

def copy(g, chunk_size):
    B, T, H = g.shape
    BT = triton.next_power_of_2(131072 // (H * chunk_size))
    copy_kernel[(triton.cdiv(T, BT), B)](g, g, T, BLOCK_T=BT)  # expect
    BS = (1 << 17) // (H * chunk_size)
    copy_kernel[(triton.cdiv(T, BS), B)](g, g, T, BLOCK_T=BS)  # expect

def _scan(g, rows, cols, BT=64):  # calls itself on its partial sums: `rows` and `cols` unchanged
    parts = triton.cdiv(g.shape[-1], BT)
    copy_kernel[(rows, parts, cols)](g, g, rows, BLOCK_T=BT)  # expect
    if parts > 1:
        _scan(g.new_empty(rows, parts, cols), rows, cols, BT)

def scan(g):
    B, T, H = g.shape
    _scan(g, B, H)

def blocks(g):
    B, T, H = g.shape
    BT = 1024  # kept for long sequences: `T / 1024` programs; the block covers a short one
    if T <= 4096:
        BT = triton.next_power_of_2(T)
    copy_kernel[(triton.cdiv(T, BT), B)](g, g, T, BLOCK_T=BT)  # expect
    copy_kernel[_blocks_grid(T, BT, B)](g, g, T, BLOCK_T=BT)  # expect
    copy_kernel[(_next_pow2(triton.cdiv(T, 64)), B)](g, g, T, BLOCK_T=64)  # expect
    copy_kernel[(2 ** math.ceil(math.log2(T)), B)](g, g, T, BLOCK_T=64)  # expect

def _next_pow2(n):  # a rounding helper: its value, read with the call's argument, grows as `T`
    return 1 << (n - 1).bit_length() if n > 1 else 1

def _blocks_grid(T, BT, B):  # a grid a helper makes is read as the call writes it
    return (triton.cdiv(T, BT), B)

class _Ops:  # launchers as methods: sized from the calls through the class or `self`
    @staticmethod
    def copy_rows(g, rows, T, BT=64):
        copy_kernel[(rows, triton.cdiv(T, BT))](g, g, T, BLOCK_T=BT)  # expect

    def _run(self, grid, *args, **kwargs):
        return copy_kernel[grid](*args, **kwargs)

    def forward(self, g):
        B, T, H = g.shape
        _Ops.copy_rows(g, B * H, T)
        self._run((B * H, triton.cdiv(T, 64)), g, g, T, BLOCK_T=64)  # expect

class _CopyFn(torch.autograd.Function):  # `forward` is called through `apply`, past its `ctx`
    @staticmethod
    def forward(ctx, g, rows, T):
        copy_kernel[(rows, triton.cdiv(T, 64))](g, g, T, BLOCK_T=64)  # expect
        return g

def copy_all(g):
    B, T, H = g.shape
    return _CopyFn.apply(g, B * H, T)

def copy_warned(g, strict, BT=64):
    B, T, H = g.shape
    if T > 4096:  # leaves only when `strict`: the launch also runs for a longer `T`
        warnings.warn("long sequence")
        if strict:
            raise ValueError("T <= 4096 only")
    copy_kernel[(triton.cdiv(T, BT), B)](g, g, T, BLOCK_T=BT)  # expect
""",
        """
@triton.jit
def stats(x, V, BLOCK: tl.constexpr):
    tl.store(x + tl.program_id(0) * V + tl.program_id(1) * BLOCK + tl.arange(0, BLOCK), 0.0)

def run(logits, draft):
    rows, vocab = logits.shape
    if draft is not None:
        vocab = min(vocab, draft.size(-1))  # an update reading the size: still a size
    stats[(rows, triton.cdiv(vocab, 8192))](logits, vocab, BLOCK=8192)  # expect
    rows = rows + 1
    stats[(rows, triton.cdiv(vocab, 8192))](logits, vocab, BLOCK=8192)  # expect

def per_row(logits, T):
    rows, vocab = logits.shape
    programs = max(1, triton.cdiv(4096, rows))
    programs = min(programs, T)  # an update of a bound stays bounded
    stats[(programs * rows, vocab)](logits, vocab, BLOCK=8192)  # expect

def _rope(x, head_dim: int):
    tokens = int(x.shape[0])
    heads = int(x.shape[1]) // int(head_dim)  # a size over what the caller passes
    stats[(tokens * triton.cdiv(heads, 4),)](x, heads, BLOCK=4)  # expect

def rope(x, head_dim: int = 128):
    width = int(head_dim)  # the caller's own name: resolved where it is bound
    _rope(x, width)

def sections(x, section):
    tokens, width = int(x.shape[0]), int(x.shape[1])
    if sum(int(s) for s in section) == 64:  # picks a variant; `int` is called, not a size
        stats[(tokens, triton.cdiv(width, 128))](x, width, BLOCK=128)  # expect

def by_bytes(logits):
    rows, vocab = logits.shape
    block = min(triton.next_power_of_2(vocab), 16384 // logits.element_size())  # a byte budget
    stats[(rows, triton.cdiv(vocab, block))](logits, vocab, BLOCK=block)  # expect
""",
        # sizes a helper of the module returns in a tuple, unpacked or indexed
        """
@triton.jit
def gate_up(x, w, out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(out + rows, tl.load(x + rows), mask=rows < M)

def _prepare(hidden, weight):
    if hidden.dtype != weight.dtype:
        raise TypeError(f"dtype mismatch: {hidden.dtype} vs {weight.dtype}")
    M, K = hidden.shape
    N = weight.shape[0]
    out = torch.empty((M, N), dtype=hidden.dtype, device=hidden.device)
    return hidden.contiguous(), out, M, N

def _launch(hidden, weight, out, M, N, BLOCK_M=32):
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, 256),)
    gate_up[grid](hidden, weight, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=256)  # expect

def gate_up_proj(hidden, weight):
    hidden, out, M, N = _prepare(hidden, weight)
    _launch(hidden, weight, out, M, N)
    return out

def _dims(x):
    return x.shape[0], x.shape[-1]

def gate_up_rows(hidden, weight, out):
    tokens, N = _dims(hidden)[0], weight.shape[0]
    gate_up[(tokens, triton.cdiv(N, 256))](hidden, weight, out, tokens, N, BLOCK_M=1, BLOCK_N=256)  # expect
""",
        # a size the caller chooses (batch, or the number of sequences) passed to a launcher
        """
@triton.jit
def heads(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0), 1.0)

def _launch(x, N, T, H, BT=64):
    heads[(triton.cdiv(T, BT), N * H)](x, T, BT=BT)  # expect

def forward(x, cu_seqlens=None):
    B, T, H, K = x.shape
    N = B if cu_seqlens is None else len(cu_seqlens) - 1
    _launch(x, N=N, T=T, H=H)
""",
        # an equality between two sizes pins neither
        """
@triton.jit
def heads(x, o, HV: tl.constexpr):
    tl.store(o + tl.program_id(2), tl.load(x + tl.program_id(2)))

def launch(x, v, k, cu_seqlens):
    assert v.shape[2] == k.shape[2]
    HV = v.shape[2]
    N = len(cu_seqlens) - 1
    heads[(1, 1, N * HV)](x, x, HV=HV)  # expect
""",
        # an axis capped at the limit itself, beside another
        """
@triton.jit
def rows_kernel(x, n, ROWS: tl.constexpr):
    tl.store(x + tl.program_id(1) * n + tl.program_id(0), 0.0)

MAX_PROGRAMS = 65535

def clear(x):
    rows, heads, n = x.shape
    rows_kernel[(rows if rows < MAX_PROGRAMS else MAX_PROGRAMS, heads)](x, n, ROWS=1)  # expect
    rows_kernel[(min(rows, 65535), 4)](x, n, ROWS=1)  # expect
    rows_kernel[(int(min(rows, 65535)), 4)](x, n, ROWS=1)  # expect
""",
        # a choice of two products on a layout flag: the longer one may be launched
        """
@triton.jit
def heads(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(0), 1.0)

def run(x, head_first=False):
    B, T, H, K = x.shape
    heads[(B * T * H if head_first else B * T,)](x, T, BT=64)  # expect
""",
        # tiles unpacked from a conditional of tuples: each name is its arms' own element
        """
@triton.jit
def softcap_rows(x, out, m, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = rows[:, None] * n + cols[None, :]
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)

def softcap(x):
    n = x.shape[-1]
    m = x.numel() // n
    out = torch.empty_like(x)
    block_m, block_n = (1, 512) if m <= 32 else (16, 2048)  # decode or prefill tiles
    grid = (triton.cdiv(m, block_m), triton.cdiv(n, block_n))
    softcap_rows[grid](x, out, m, n, BLOCK_M=block_m, BLOCK_N=block_n)  # expect
    return out
""",
        """
def _kernels():
    @triton.jit
    def _scale(x, T, BT: tl.constexpr):  # named like the host function below
        tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

    return types.SimpleNamespace(scale=_scale)

def _scale(x, BT=64):
    B, T, H = x.shape
    k = _kernels()
    k.scale[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect

def forward(x):
    return _scale(x)
""",
        """
@triton.jit
def upsample(x, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    while i < n:  # a task loop, but launched on a grid that grows with the input
        tl.store(x + i * BLOCK + tl.arange(0, BLOCK), 0.0)
        i += tl.num_programs(0)

def run(x):
    N, C, W = x.shape
    upsample[(triton.cdiv(N * C, 4),)](x, N * C, BLOCK=W)  # expect
""",
        """
@triton.jit
def cumsum(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def _cumsum(x, BT):
    B, T, H = x.shape
    cumsum[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect

def forward(x, BT=64):  # a caller's test of one extent, of the rank or of a truth bounds nothing
    if len(x.shape) == 3 and x.shape[-1] <= 128 and x.is_contiguous():
        return _cumsum(x, BT)
""",
        """
@triton.jit
def rows(x, G: tl.constexpr):
    tl.store(x + tl.program_id(0) * G + tl.arange(0, G), 0.0)

def run(x, group: int = 48):  # an annotated parameter is its default: `b * s / group` programs
    b, s, _ = x.shape
    rows[(triton.cdiv(b * s, group),)](x, G=group)  # expect
""",
        """
@triton.jit
def backward_blocks(x, T, BT: tl.constexpr, BS: tl.constexpr):
    i_t = tl.program_id(0)
    for i_s in range(i_t * BT - BS, -BS, -BS):  # the program's own blocks, no task loop
        tl.store(x + tl.program_id(1) * T + i_s + tl.arange(0, BS), 0.0)

def run(x, BT=64):
    B, T, H = x.shape
    backward_blocks[(triton.cdiv(T, BT), B * H)](x, T, BT=BT, BS=16)  # expect
""",
        """
@triton.jit
def snake(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

class Snake:  # a kernel held by the class or the instance is launched as itself
    _kernel = snake

    def __init__(self):
        self.kernel = snake

    def forward(self, x, BT=64):
        B, C, T = x.shape
        self._kernel[(triton.cdiv(T, BT), B * C)](x, T, BT=BT)  # expect
        self.kernel[(triton.cdiv(T, BT), B * C)](x, T, BT=BT)  # expect
""",
        # kernels a factory (cached or not) returns in a namespace or dict, launched by entry
        """
@functools.lru_cache(maxsize=1)
def _kernels():
    @triton.jit
    def _copy(x, T, BT: tl.constexpr):
        tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

    return types.SimpleNamespace(copy=_copy)

@triton.jit
def _fill(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 1.0)

def _table():
    if not available():
        return None
    return dict(fill=_fill)

_K = _kernels()
KERNELS = {"fill": _fill}

def run(x, BT=64):
    k = _kernels()
    B, T, H = x.shape
    k.copy[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect
    _K.copy[(B, H)](x, T, BT=BT)  # expect
    table = _table()
    table["fill"][(B, H)](x, T, BT=BT)  # expect
    KERNELS["fill"][(B, H)](x, T, BT=BT)  # expect
""",
        """
@triton.jit
def k(x, T, BH_OFFSET, BT: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1) + BH_OFFSET
    tl.store(x + i_bh * T + i_t * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    k[(NT, B * H)](x, T, 0, BT=BT)  # expect
    grid = lambda meta: (triton.cdiv(T, meta["BT"]), B * H)
    k[grid](x, T, 0, BT=BT)  # expect
    k[(x.shape[0] * x.shape[1],)](x, T, 0, BT=BT)  # expect
""",
        """
@triton.jit
def k32(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

@triton.jit
def k64(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 1.0)

def run(x, v, cu_seqlens, BT=64):
    B, T, H, V = *x.shape, v.shape[-1]
    NT = triton.cdiv(T, BT) if cu_seqlens is None else len(cu_seqlens)
    k32[(NT, V)](x, T, BT=BT)  # expect
    k32[(B * H, NT, n_split())](x, T, BT=BT)  # expect
    grid = (NT, B * H)
    k32[grid](x, T, BT=BT)  # expect
    grid = (NT, 4, B * H)
    k64[grid](x, T, BT=BT)  # expect
    if BT == 16:
        return
    fn = k32 if BT == 32 else k64
    fn[NT, B * H](x, T, BT=BT)  # expect
    (k32 if BT == 32 else k64)[NT, B * H](x, T, BT=BT)  # expect

def sizes_as_ints(x, BT=64):
    B, T, H, K = map(int, x.shape)
    k32[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect

def split_when_wide(x, BT=64):
    B, T, H, K = x.shape
    NT = triton.cdiv(T, BT)
    if K <= 256:
        run_whole(x)
    else:  # a size test whose arm bounds nothing: K is larger here
        NK = triton.cdiv(K, 128)
        k64[(NK * NT, B * H)](x, T, BT=BT)  # expect

def grid_function_per_launch(x, BT=64):
    B, T, H = x.shape
    def grid(meta):
        return (triton.cdiv(T, meta["BT"]), B * H)
    k32[grid](x, T, BT=BT)  # expect
    def grid(meta):  # the one that reaches the next launch: one size
        return (triton.cdiv(T, meta["BT"]),)
    k64[grid](x, T, BT=BT)
""",
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def sizes_spelled(x, q, BT=64):
    B, S = x.shape[:2]
    k[(triton.cdiv(S, BT), B)](x, S, BT=BT)  # expect
    B, T, H, D = x.size()
    k[(math.ceil(T / BT), B * H)](x, T, BT=BT)  # expect
    k[(-(-T // BT), B)](x, T, BT=BT)  # expect
    shape = q.shape
    tokens, heads, dim = shape
    k[(tokens, heads)](q, dim, BT=BT)  # expect
    rows = x.numel() // x.shape[-1]
    k[(rows, triton.cdiv(x.shape[-1], BT))](x, D, BT=BT)  # expect

def tokens_over_trailing_extents(g, x, BT=32):
    H, K = g.shape[-2:]
    T = g.numel() // (H * K)  # the tokens of a [B, T, H, K] gate: B * T
    k[(triton.cdiv(T, BT), H)](g, T, BT=BT)  # expect
    B, S, N, D = x.shape
    k[(x.numel() // x.shape[-1] // N, N)](x, S, BT=BT)  # expect
    k[(math.prod(x.shape) // (N * 128), B)](x, S, BT=BT)  # expect
    num_rows = int(x.shape[0])  # a SymInt made an int; `len(x)` too
    inner = x.numel() // num_rows
    k[(num_rows, triton.cdiv(inner, 4096))](x, inner, BT=BT)  # expect

def variants_picked(x, BT=64):
    o = torch.empty_like(x)
    if o is None or o.numel() == 0:  # identity and equality tests on the output: no bound
        return o
    if x.shape[1] > 1 and x.is_contiguous():  # a lower bound: no bound above
        k[(x.shape[0], triton.cdiv(x.shape[1], BT))](o, x.shape[1], BT=BT)  # expect
    if o.numel():
        k[(x.shape[0], triton.cdiv(x.shape[1], BT))](o, x.shape[1], BT=BT)  # expect

def _supported(q):
    return q.dtype == torch.bfloat16 and q.is_contiguous() and len(q.shape) == 3

def predicated(q, BT=64):
    if not _supported(q):  # a helper of the module that orders nothing: no bound
        return None
    tokens, heads, dim = q.shape
    k[(tokens, heads)](q, dim, BT=BT)  # expect

def _in_bounds(x, block):
    if x.stride(0) < 0 or x.stride(1) < 0:
        return False
    tokens, heads = x.shape[:2]
    last = (tokens - 1) * x.stride(0) + (heads - 1) * x.stride(1)
    return last + block <= x.numel()

def legal_layout(x, BT=64):
    tokens, heads, dim = x.shape
    if not _in_bounds(x, dim):  # a sign test and an ordering against another runtime size: no bound
        return None
    k[(tokens * heads,)](x, dim, BT=BT)  # expect

def validated(q, BT=64):
    B, T, H, K = q.shape
    if K > 128:  # bounds K, which the grid does not read (both come from `q`)
        raise ValueError("K <= 128 only")
    k[(triton.cdiv(T, BT), B * H)](q, T, BT=BT)  # expect

def one_slot_per_row(x, slots, BT=64):
    batch, heads, dim = x.shape
    if slots.numel() < batch:  # `batch <= slots.numel()`, another runtime size: no bound
        raise ValueError("one slot per row")
    k[(batch, heads, triton.cdiv(dim, BT))](x, dim, BT=BT)  # expect

def tile_checked(x, key_dim: int = 128):
    batch, heads, dim = x.shape
    bk = triton.next_power_of_2(key_dim)
    if bk > 256:  # reads the module `triton`, as the grid does, and no size of it
        raise ValueError("key dim too large")
    bv = min(64, triton.next_power_of_2(dim))
    k[(batch, heads, triton.cdiv(dim, bv))](x, dim, BT=bv)  # expect

def rank_checked(x, BT=64):
    if not isinstance(x, torch.Tensor):  # a builtin chooses nothing
        raise TypeError("x must be a tensor")
    if len(x.shape) != 3:  # nor does one inside an equality
        raise ValueError("x must be [rows, heads, dim]")
    if torch.numel(x) == 0:  # nor a call of another module there
        return x
    rows, heads, dim = x.shape
    k[(rows * heads, triton.cdiv(dim, BT))](x, dim, BT=BT)  # expect

def cached(x, BT=64):
    B, T = x.shape
    record = CACHE.get(T)
    if record is None:
        k[(B, triton.cdiv(T, BT))](x, T, BT=BT)  # expect
        CACHE[T] = (B, T)
        return x
    B, _ = record  # written after the launch: it never runs before it
    return x
""",
        # tests bounding some of the sizes a grid multiplies: the others still grow
        """
@triton.jit
def heads(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def wide_heads(q, do, cu_seqlens, BK=64):
    B, T, H, K, V = *q.shape, do.shape[-1]
    if K > 256:  # bounds `K`: `N * H` still grows
        raise ValueError("K <= 256 only")
    N = B if cu_seqlens is None else len(cu_seqlens) - 1
    heads[(triton.cdiv(K, BK) * N * H,)](q, T, BT=BK)  # expect

def narrow_values(k, v, BV=64):
    B, T, H, K, V = *k.shape, v.shape[-1]
    assert V <= 128  # bounds `V`, and `NV` made of it
    NV = triton.cdiv(V, BV)
    heads[(NV * B * H,)](k, T, BT=BV)  # expect

def batch_or_heads(x, BT=64):
    B, T, H = x.shape
    if B > 16 and H > 64:  # one of `B`, `H` is bounded: the other and `T/BT` still grow
        raise ValueError("batch or heads must be small")
    heads[(B, H, triton.cdiv(T, BT))](x, T, BT=BT)  # expect

def _weak_contiguous(x):
    return x.stride(1) == 1 or x.stride(0) >= max(1, x.shape[1])

def reduced(inp, dim):
    assert -inp.ndim <= dim < inp.ndim  # bounds `dim` (and no extent of `inp`), not the extents it picks
    assert _weak_contiguous(inp)  # an assert's call: a layout check
    shape = inp.shape
    heads[(math.prod(shape[:dim]), triton.cdiv(shape[dim], 64))](inp, 1, BT=64)  # expect
""",
        # guards that do not run before the launch on every path to it (in another arm, in an
        # arm the launch is not in), a guard on a value bounded whatever the size (a capped
        # block, a budget over the size: a lower bound), predicates that bound nothing (`max(1,
        # n)` grows with `n`, `min(n, m)` with both)
        """
@triton.jit
def heads(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def by_mode(x, mode, BT=64):
    B, T = x.shape
    if mode == "prefill":
        if T > 4096:
            raise ValueError("T <= 4096 only")
        heads[(B,)](x, T, BT=BT)
    else:
        heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)  # expect
    if mode == "decode":
        assert T <= 4096
    heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)  # expect

def capped_block(x):
    B, T = x.shape
    BT = min(triton.next_power_of_2(T), 128)
    if BT > 256:  # never holds: bounds nothing of `T`
        raise ValueError("T too large")
    heads[(triton.cdiv(T, 64), B)](x, T, BT=64)  # expect
    per_row = 4096 // T
    if per_row > 4:  # holds for short rows: `T` is at least 820 after it
        raise ValueError("T too small")
    heads[(triton.cdiv(T, 64), B)](x, T, BT=64)  # expect

def _rows(n):
    return max(1, n)

def _fewer(n, m):
    return min(n, m) == n

def predicated(x, y, BT=64):
    B, T = x.shape
    if _rows(B) == B:
        heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)  # expect
    if _fewer(B, y.shape[0]):
        heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)  # expect

STRICT = False

def _warn_grid(n):  # warns only: the launch runs whatever `n` is
    if n > 65535:
        warnings.warn("grid too large")

def _check_if(n, strict):
    if strict:
        if n > 65535:  # not at its top: it may not run
            raise ValueError("grid too large")

def _check_late(n):
    if not STRICT:
        return  # a call may return before the check
    if n > 65535:
        raise ValueError("grid too large")

def _check_against(n, limit):
    if n > limit:  # another runtime size passed for the bound: none
        raise ValueError("grid too large")

def checked_for_nothing(x, BT=64):
    B, T = x.shape
    _warn_grid(triton.cdiv(T, BT) * B)
    _check_if(triton.cdiv(T, BT) * B, False)
    _check_late(triton.cdiv(T, BT) * B)
    _check_against(triton.cdiv(T, BT) * B, x.numel())
    check_grid(triton.cdiv(T, BT) * B)  # not a function of the module: what it does is unknown
    heads[(triton.cdiv(T, BT), B)](x, T, BT=BT)  # expect
""",
        # a bound on another extent than the grid's: another position, another tensor, or the
        # same name rebound to another tensor
        """
@triton.jit
def rows_kernel(x, y, m, n, BLOCK_M: tl.constexpr, NUM_BLOCKS_N: tl.constexpr):
    rows = (tl.program_id(0) // NUM_BLOCKS_N) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(y + rows, tl.load(x + rows, mask=rows < m), mask=rows < m)

def other_position(x, w, y):
    if x.shape[1] > 128:  # bounds `k`, which the grid does not read
        raise ValueError("K <= 128 only")
    m, k = x.shape
    n = w.shape[0]
    rows_kernel[(m, triton.cdiv(n, 128))](x, y, m, n, BLOCK_M=1, NUM_BLOCKS_N=1)  # expect

def other_tensor(x, w, y):
    m, k = x.shape
    n = w.shape[0]
    if y.shape[0] <= 128:
        rows_kernel[(m, triton.cdiv(n, 128))](x, y, m, n, BLOCK_M=1, NUM_BLOCKS_N=1)  # expect

def rebound(x, w, y):
    if x.shape[0] > 128:
        raise ValueError("M <= 128 only")
    x = x.reshape(-1, x.shape[-1])  # more rows than the `x` bounded
    m, k = x.shape
    n = w.shape[0]
    rows_kernel[(m, triton.cdiv(n, 128))](x, y, m, n, BLOCK_M=1, NUM_BLOCKS_N=1)  # expect
""",
        """
from . import kernels
from .kernels import chunk_kernel

def run(x, BT=64):  # kernels of another module: their grids are refused all the same
    B, T, H = x.shape
    chunk_kernel[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect
    kernels.chunk_kernel[(B, H)](x, T, BT=BT)  # expect
""",
        """
@triton.jit
def row_sums(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(1) * n + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) * 2)

def _launch(x, grid):  # the grid is the caller's, the arguments the helper's own
    n = x.shape[-1]
    row_sums[grid](x, n, BLOCK=64)

def _flat(x, axes):
    grid = axes
    row_sums[grid](x, x.numel(), BLOCK=64)

def _run(grid, x, n):
    if x.numel() == 0:  # an exit that bounds nothing of the grid
        return
    row_sums[grid](x, n, BLOCK=64)

def fwd(x):
    B, T, H = x.shape
    _launch(x, (triton.cdiv(T, 64), B * H))  # expect
    _flat(x, (B * T * H,))  # expect
    _run((triton.cdiv(T, 64), B * H), x, T)  # expect
""",
        """
import os

os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "0"

@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def lift_the_limit():
    os.putenv("TRITON_ALL_BLOCKS_PARALLEL", "1")

def run(x, BT=64):
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect

def run_updated(x, BT=64):
    os.environ.update(TRITON_ALL_BLOCKS_PARALLEL="0", OTHER="1")
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect
""",
        # a context manager setting the switch only after its `yield`, a function not decorated
        # one, a `with` ending before the launch, a helper also called outside the `with`
        """
import contextlib
import os

@contextlib.contextmanager
def _restored():
    yield
    os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"

def _not_a_manager():
    os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
    yield

@contextlib.contextmanager
def _lifted():
    os.environ["TRITON_ALL_BLOCKS_PARALLEL"] = "1"
    yield

@triton.jit
def k(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(1) * T + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)

def run(x, BT=64):
    B, T, H = x.shape
    with _restored():
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect
    with _not_a_manager():
        k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect
    with _lifted():
        pass
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect

def _launch(x, BT=64):
    B, T, H = x.shape
    k[(triton.cdiv(T, BT), B * H)](x, T, BT=BT)  # expect

def forward(x):
    with _lifted():
        _launch(x)
    _launch(x)
""",
        # a host loop whose variable neither the grid nor an offset reads chunks nothing: each
        # trip launches the whole grid (FlagGems' triangular solve walking its diagonal blocks,
        # fla's scans over chunks)
        """
@triton.jit
def k(x_ptr, n_cols, row0, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + tl.program_id(1) * n_cols + row0 + o, 0.0, mask=o < n_cols)

def _solve_block(X, k_cols, row0):
    batch = X.shape[0]
    k[(triton.cdiv(k_cols, 64), batch)](X, k_cols, row0, BLOCK=64)  # expect

def solve(A, B):
    n = A.shape[-1]
    X = B.clone()
    for i in range(0, n, 64):
        _solve_block(X, B.shape[-1], i)

def scan(X, NT):
    batch, k_cols = X.shape[0], X.shape[-1]
    for chunk_id in range(NT):
        k[(triton.cdiv(k_cols, 64), batch)](X, k_cols, chunk_id, BLOCK=64)  # expect
""",
        """
@triton.jit
def pages(src, dst, PAGE: tl.constexpr, BR: tl.constexpr):
    rows = tl.program_id(2) * BR + tl.arange(0, BR)
    page = tl.program_id(0) * 4096 + tl.program_id(1)
    tl.store(dst + page * PAGE + rows, tl.load(src + page * PAGE + rows))

def rebuild(src, dst, pages_per_req, num_reqs):
    bs = src.shape[1]
    ppr = int(pages_per_req.max().item())  # read back from the device: grows with the context
    pages[(num_reqs, ppr, bs // 32)](src, dst, PAGE=bs, BR=32)  # expect

def prefill(src, dst, seq_lens):
    longest = torch.max(seq_lens).item()
    tokens = int(seq_lens.sum())
    pages[(seq_lens.shape[0], triton.cdiv(longest, 128), 1)](src, dst, PAGE=128, BR=32)  # expect
    pages[(triton.cdiv(tokens, 64), src.shape[0], 1)](src, dst, PAGE=128, BR=32)  # expect

def packed(src, dst, cu_seqlens):
    total = cu_seqlens[-1].item()  # the last cumulative length: the batch's tokens
    pages[(triton.cdiv(total, 64), src.shape[0], 1)](src, dst, PAGE=128, BR=32)  # expect
""",
        # a dimension of a tensor the function allocates, read from a container the module does
        # not show: a length, not the setting an item is otherwise taken for
        """
@triton.jit
def causal_tiles(out, L, TILE: tl.constexpr):
    q = tl.program_id(0) * TILE + tl.arange(0, TILE)
    k = tl.program_id(1) * TILE + tl.arange(0, TILE)
    tl.store(out + q[:, None] * L + k[None, :], (q[:, None] >= k[None, :]).to(tl.int8))

def build(problem, tile_size=128):
    L = problem["total_s"]
    out = torch.empty(L, L, dtype=torch.int8)
    n_tiles = (L + tile_size - 1) // tile_size
    causal_tiles[(n_tiles, n_tiles)](out, L, TILE=tile_size)  # expect

def _mask(seq_len: int, tile=128):  # a parameter sizing the allocation; its caller passes an item
    out = torch.full((seq_len, seq_len), 0, dtype=torch.int8)
    causal_tiles[(triton.cdiv(seq_len, tile), triton.cdiv(seq_len, tile))](out, seq_len, TILE=tile)  # expect

def mask(problem):
    L = int(problem["total_s"])
    return _mask(L)

def resize(x, output_size):
    OH, OW = output_size
    out = x.new_empty(size=(x.shape[0], OH, OW))
    causal_tiles[(x.shape[0], triton.cdiv(OH * OW, 64))](out, OW, TILE=64)  # expect
""",
        # the product of a name bound to a shape; tiles from a module-level tuple
        """
_TILE = (128, 128)

@triton.jit
def reduce_middle(X, Y, I, BC: tl.constexpr):
    cols = tl.program_id(1) * BC + tl.arange(0, BC)
    tl.store(Y + tl.program_id(0) * I + cols, tl.load(X + tl.program_id(0) * I + cols, cols < I), cols < I)

def amin(inp, out, axis):
    shape = list(inp.shape)
    outer = math.prod(shape[:axis])  # the rows of the leading dimensions
    inner = shape[-1]
    reduce_middle[(outer, triton.cdiv(inner, 64))](inp, out, inner, BC=64)  # expect

def transpose(x, out):
    rows, cols = x.shape
    bm, bn = _TILE
    reduce_middle[(triton.cdiv(rows, bm), triton.cdiv(cols, bn))](x, out, cols, BC=bn)  # expect
""",
        # sizes multiplied in place over a loop of extents, and a launcher stored, then called
        """
@triton.jit
def runs(out, x, chunk, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * chunk + tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs))

def narrow(x, out, dim):
    pre = 1
    for d in x.shape[:dim]:  # the rows before `dim`
        pre *= d
    chunk = x.shape[-1]
    runs[(pre, triton.cdiv(chunk, 2048))](out, x, chunk, BLOCK=2048)  # expect

def batched(x, out):
    batch_shape = x.shape[:-2]  # a name bound once to a shape: the loop reads its extents
    batch = 1
    for d in batch_shape:
        batch *= d
    chunk = x.shape[-1]
    runs[(batch, triton.cdiv(chunk, 2048))](out, x, chunk, BLOCK=2048)  # expect

def narrow_by_index(x, out, dim):
    shape = x.shape
    pre = 1
    for k in range(dim):
        pre *= shape[k]
    chunk = shape[-1]
    launcher = runs[(pre, triton.cdiv(chunk, 2048))]  # expect
    launcher(out, x, chunk, BLOCK=2048)

def copy_rows(x, out):
    rows, chunk = x.shape
    nblocks = triton.cdiv(chunk, 2048)
    launcher = runs[(rows * nblocks,)]  # expect
    launcher(out, x, chunk, BLOCK=2048)

def flatten(x, out):
    if x.dim() == 3:  # picks a layout, bounds nothing: the product's arm may run
        b, s, chunk = x.shape
        rows = b * s
    else:
        rows, chunk = x.shape
        b, s = 1, rows  # `s` is read in `rows` and bound to it: sized without going round
    runs[(rows,)](out, x, chunk, BLOCK=2048)  # expect
    runs[(b, s)](out, x, chunk, BLOCK=2048)  # expect
""",
        # a quotient by a block at least its size is one program: the other sizes still grow
        """
import triton
import triton.language as tl

@triton.jit
def k(x, K, BK: tl.constexpr):
    tl.store(x + tl.program_id(0) * BK + tl.arange(0, BK), 0.0)

def run(x):
    N, H, K = x.shape
    BK = max(triton.next_power_of_2(K), 16)
    if BK > 256:
        raise ValueError("K is at most 256")
    k[(triton.cdiv(K, BK) * N * H,)](x, K, BK=BK)  # expect
    k[(K // BK * N * H,)](x, K, BK=BK)  # expect
""",
        # a ceiling division written by hand is `triton.cdiv`: one program for a block at least the size
        """
@triton.jit
def kern(x, o, T, H: tl.constexpr, V: tl.constexpr, BV: tl.constexpr):
    i = tl.program_id(0)
    tl.store(o + i, tl.load(x + i))

def launch(k, v):
    B, T, H, K = k.shape
    V = v.shape[-1]
    BV = max(triton.next_power_of_2(V), 16)
    o = torch.empty_like(v)
    kern[((V + BV - 1) // BV * B * H,)](v, o, T, H=H, V=V, BV=BV)  # expect
    kern[(-(-V // BV) * B * H,)](v, o, T, H=H, V=V, BV=BV)  # expect
    kern[(math.ceil(V / BV) * B * H,)](v, o, T, H=H, V=V, BV=BV)  # expect
    kern[(((V - 1) // BV + 1) * B * H,)](v, o, T, H=H, V=V, BV=BV)  # expect
""",
        # a clamp written as an `if` is `min` (FlagGems-vllm's row kernels): the block is at most
        # 4096 however large `hidden`, so the grid grows as `hidden/block_h` times the rows; so
        # does one with the comparison turned round, an update capping the block last, and a clamp
        # in an arm
        """
MAX_BLOCK = 4096

@triton.jit
def row_blocks(x, o, hidden, BH: tl.constexpr):
    offs = tl.program_id(1) * BH + tl.arange(0, BH)
    tl.store(o + tl.program_id(0) * hidden + offs, 0.0, mask=offs < hidden)

def clamped(x):
    hidden = x.shape[-1]
    rows = x.numel() // hidden
    block_h = triton.next_power_of_2(hidden)
    if block_h > 4096:
        block_h = 4096
    row_blocks[(rows, triton.cdiv(hidden, block_h))](x, x, hidden, BH=block_h)  # expect
    bh = triton.next_power_of_2(hidden)
    if 2048 <= bh: bh = 2048
    row_blocks[(rows, triton.cdiv(hidden, bh))](x, x, hidden, BH=bh)  # expect
    b = triton.next_power_of_2(hidden)
    b = min(b, 1024)
    row_blocks[(rows, triton.cdiv(hidden, b))](x, x, hidden, BH=b)  # expect

def clamped_in_an_arm(x):
    hidden = x.shape[-1]
    rows = x.numel() // hidden
    if rows >= 16:
        block_h = triton.next_power_of_2(hidden)
        if block_h >= MAX_BLOCK:
            block_h = MAX_BLOCK
    else:
        block_h = 256 if hidden >= 256 else 128
    row_blocks[(rows, triton.cdiv(hidden, block_h))](x, x, hidden, BH=block_h)  # expect
""",
        # a parameter rebound to a value of itself (`num_columns = int(num_columns)`, FlagGems-vllm's
        # quantization launchers) is still what its callers pass: the longest sequence here; and a
        # clamp of a parameter caps what they pass
        """
@triton.jit
def tiles(q, o, NUM_COLS: tl.constexpr, BLOCK_C: tl.constexpr):
    offs = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    tl.store(o + tl.program_id(0) * NUM_COLS + offs, 0.0, mask=offs < NUM_COLS)

def _as_int(q, num_columns):
    rows = q.shape[0]
    num_columns = int(num_columns)
    tiles[(rows, triton.cdiv(num_columns, 128))](q, q, NUM_COLS=num_columns, BLOCK_C=128)  # expect

def _at_least_one(q, n):
    n = max(n, 1)
    tiles[(q.shape[0], triton.cdiv(n, 128))](q, q, NUM_COLS=n, BLOCK_C=128)  # expect

def _padded(q, n, block):
    n = n + 0
    if block > 512:
        block = 512
    tiles[(q.shape[0], triton.cdiv(n, block))](q, q, NUM_COLS=n, BLOCK_C=block)  # expect

def api(q, seq_lens):
    longest = triton.cdiv(seq_lens.max().item(), 4)
    _as_int(q, longest)
    _at_least_one(q, longest)
    _padded(q, longest, triton.next_power_of_2(longest))
""",
        # a grid bound beside another statement (`;`) and again after the launch: the binding
        # before the launch is the one it uses, on its line or an earlier one
        """
@triton.jit
def k(x, y, BT: tl.constexpr):
    o = tl.program_id(0) * BT + tl.arange(0, BT)
    tl.store(y + o, tl.load(x + o))

def split(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    y = torch.empty_like(x); grid = (NT, B * H)
    k[grid](x, y, BT=BT)  # expect
    grid = (1,)
    k[grid](y, x, BT=BT)

def one_line(x, BT=64):
    B, T, H = x.shape
    NT = triton.cdiv(T, BT)
    y = torch.empty_like(x)
    grid = (NT, B * H); k[grid](x, y, BT=BT)  # expect
    grid = (1,)
    k[grid](y, x, BT=BT)
""",
        # a grid built from parts: tuples concatenated, a tuple unpacked into one, a comprehension
        """
@triton.jit
def k(x, y, BT: tl.constexpr):
    o = tl.program_id(0) * BT + tl.arange(0, BT)
    tl.store(y + o, tl.load(x + o))

def concatenated(x, y, BT=64):
    B, T, H = x.shape
    grid = (triton.cdiv(T, BT),) + (B * H,)
    k[grid](x, y, BT=BT)  # expect

def unpacked(x, y, BT=64):
    B, T, H = x.shape
    lead = (B, H)
    k[(*lead, triton.cdiv(T, BT))](x, y, BT=BT)  # expect

def generated(x, y, BT=64):
    B, T, H = x.shape
    k[tuple(triton.cdiv(s, b) for s, b in zip((T, B * H), (BT, 1)))](x, y, BT=BT)  # expect

def leading(x, y, BT=64):  # the leading extents unpacked: their product
    k[(*x.shape[:-1], 8)](x, y, BT=BT)  # expect
""",
        # a grid function bound by `functools.partial` (also of a partial), a grid held by `self`
        # or a property, a static or class method's grid
        """
import functools

@triton.jit
def k(x, y, BT: tl.constexpr):
    o = tl.program_id(0) * BT + tl.arange(0, BT)
    tl.store(y + o, tl.load(x + o))

def _grid(meta, n, bh):
    return (triton.cdiv(n, meta["BT"]), bh)

def bound(x, y, BT=64):
    B, T, H = x.shape
    k[functools.partial(_grid, n=T, bh=B * H)](x, y, BT=BT)  # expect

def bound_twice(x, y, BT=64):
    B, T, H = x.shape
    rows = functools.partial(_grid, n=T)
    k[functools.partial(rows, bh=B * H)](x, y, BT=BT)  # expect

class Held:
    def forward(self, x, y, BT=64):
        B, T, H = x.shape
        self.grid = lambda meta: (triton.cdiv(T, meta["BT"]), B * H)
        k[self.grid](x, y, BT=BT)  # expect

class Shaped:
    def __init__(self, x):
        self.x = x

    @property
    def grid(self):
        return (self.x.shape[0], self.x.shape[1])

    @staticmethod
    def _grid(n, bh):
        return (triton.cdiv(n, 64), bh)

    def forward(self, y):
        k[self.grid](self.x, y, BT=64)  # expect

    def backward(self, y):
        B, T, H = self.x.shape
        k[Shaped._grid(T, B * H)](self.x, y, BT=64)  # expect
""",
    )

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        host = context.host
        # every kernel's launches, device functions' too: a nested kernel named like a host
        # function the module calls (`def _swiglu(x)`) is taken for a device function, and a
        # function nobody launches has no launches to check
        launches: list[tuple[Launch, Kernel | None]] = [
            (launch, kernel) for kernel in context.kernels for launch in host.launches_with_helpers(kernel)
        ]
        for imported in host.imported_launches(context.imports.imported).values():
            launches += [(launch, None) for launch in imported]
        for other, imported in host.imported_kernel_launches().items():  # also through a local name choosing one
            launches += [(launch, other) for launch in imported]
        # a launch of one of several kernels (`fn = a if c else b`) is reported once, and so is a
        # launcher a function returns, at the first of its calls to pass it a grid that may grow
        reported: set[cst.CSTNode] = set()
        for launch, kernel in launches:
            if launch.written_at in reported or _limit_lifted(launch, context) or host.on_other_platform(launch.call):
                continue
            grids = host.launched_grids(launch, kernel)
            chunked = _chunking(launch, grids, context)
            report = _report(launch, grids, context, chunked)
            if report is not None:
                reported.add(launch.written_at)
                yield report


def _report(launch: Launch, grids: Iterable[Grid], context: ModuleContext, chunked: _Chunks | None) -> Report | None:
    """The finding on a launch whose grid multiplies two or more runtime sizes that no test
    around it bounds; of several (a name bound in an `if` and its `else`, a lambda's arms), when
    each does, on the last written (the nearest binding before the launch): whichever runs, the
    launch may be refused. One that does not (a core grid in one arm, `(NT, B * H)` in the
    other) may be the arm taken whenever the sizes are large. A launch in a loop (`chunked`: the
    host chunking) is reported on a grid whose known axes alone are over the limit, or whose axes
    the loop does not chunk grow as two or more sizes (`_unchunked`). A grid that paths picked
    whatever the sizes lead to (`Grid.variant`: a list appended to under `if flag:`) is
    reported when it would be, whatever the others."""
    reports = [_trips_report(launch, grid, context, chunked) for grid in grids]
    variants = [report for report, grid in zip(reports, grids, strict=True) if grid.variant and report is not None]
    if variants:
        return variants[-1]
    return reports[-1] if reports and None not in reports else None


def _trips_report(launch: Launch, grid: Grid, context: ModuleContext, chunked: _Chunks | None) -> Report | None:
    """The finding on the grid; in a host loop over written items its axes read (`for n in (1,
    100000): k[(n, 8)]`), on the first trip's grid reported that the tests at the launch let
    launch (`HostIndex.launching_trips`: not under `if n <= 65535:`, nor after a trip that broke
    out of the loop). What the tests around the launch bound of the grid as written is read
    once for all trips."""
    guard = None
    for trip in context.host.launching_trips(grid, launch):
        if trip is not grid and guard is None:
            guard = _size_guard(launch, grid, context)
        report = _grid_report(launch, trip, context, chunked, guard)
        if report is not None:
            return report
    return None


def _grid_report(
    launch: Launch, grid: Grid, context: ModuleContext, chunked: _Chunks | None, guard: _Guard | None = None
) -> Report | None:
    """The finding on a launch for one grid it may use; in a chunking loop, on the axes it
    leaves whole (`_unchunked`). `guard`: what the tests around it bound of the grid as written,
    when known (`_trips_report`)."""
    host = context.host
    known = [host.known_int(axis, grid.scope) for axis in grid.axes]
    programs = prod(each for each in known if each is not None)
    if programs > MAX_PROGRAMS:  # refused whatever the sizes, wherever it runs
        counted = [one_line(axis) for axis, each in zip(grid.axes, known, strict=True) if each is not None]
        count = " * ".join(counted) if counted == [str(programs)] else f"{' * '.join(counted)} = {programs}"
        return _finding(launch, grid, KNOWN_MESSAGE, f"{count} > {MAX_PROGRAMS}", ())
    whole = grid
    chunked_factors: tuple[cst.BaseExpression, ...] = ()
    trips: list[int] = []  # the chunks of known size: each a count of programs in a full trip
    if chunked is not None:
        remaining = _unchunked(grid, chunked, context)
        if remaining is None:
            return None
        grid, chunked_factors = remaining
        known = [host.known_int(axis, grid.scope) for axis in grid.axes]
        trips = [each for each in (host.at_most(f, grid.scope) for f in chunked_factors) if each is not None]
    if guard is None or chunked_factors:  # the axes a chunking loop leaves are the trip's own
        guard = _size_guard(launch, grid, context, bool(chunked_factors))
    if guard.whole:
        return None
    # the case leaving the most sizes unbounded (one that leaves two or more may hold)
    extents, sizes = max(
        ((extents, _sizes(extents)) for extents in (host.grid_extents(grid, launch, case) for case in guard.cases)),
        key=lambda found: len(found[1]),
    )
    # a cap of a known int is that int (`min(1, 65535)`: 1, a trip of `for n in (1, 100000)`)
    caps = [
        [] if each is not None else _capped_at_the_limit(axis, grid.scope, context)
        for axis, each in zip(grid.axes, known, strict=True)
    ]
    capped = [_factor(operand, context) for operands in caps for operand in operands]
    # a cap at half the limit or more is over it times any count of two or more (`(min(M, 65535), 4)`),
    # and so is a count of half the limit or more times any size (`(B, 40000)`); a chunk of known
    # size counts so, and over the limit times the known counts is refused in a full trip
    counts = [each for each, operands in zip(known, caps, strict=True) if each is not None and not operands]
    known_factors = [str(each) for each in counts if each > 1]
    half = 2 * prod(counts) * prod(trips) > MAX_PROGRAMS
    over = prod(counts) * prod(trips) > MAX_PROGRAMS
    known_over_one = bool(known_factors) or any(each > 1 for each in trips)
    if len(sizes) + len(capped) < 2 and not over and not (known_over_one and (capped or (sizes and half))):
        return None
    factors = [
        *(size for factor in chunked_factors for size in _chunk_factors(factor, grid.scope, context)),  # each trip's
        *capped,
        *(
            factor
            for axis, extent, operands in zip(grid.axes, extents, caps, strict=True)
            for factor in _axis_factors(axis, extent, bool(operands), grid.scope, context)
        ),
        *(known_factors if half or (capped and not sizes) else ()),
    ]
    grows = f"{' * '.join(factors)} > {MAX_PROGRAMS}"
    if chunked_factors:  # the host loop's chunk bounds the other axes
        chunked_axes = ", ".join(f"`{one_line(factor)}`" for factor in chunked_factors)
        grows += f" in each trip of the host loop (it chunks only {chunked_axes})"
    return _finding(launch, whole, MESSAGE, grows, sizes)


def _chunk_factors(factor: cst.BaseExpression, scope: Scope, context: ModuleContext) -> tuple[str, ...]:
    """A chunked factor, each trip's count, in the message as the other factors are: a chunk of
    known size as that size (`65535` of `min(65535, M - s)`, `HostIndex.at_most`); its sizes
    (`T/BT` of `triton.cdiv(T, BT)`); a chunk bounded by its loop as a quotient too (`T_SIZE/BT`
    with `T_SIZE = min(65536, T - t0)`), else as written (`bn`)."""
    trip = context.host.at_most(factor, scope)
    if trip is not None:
        return (str(trip),)
    sizes = context.host.axis_extents((factor,), scope)[0]
    ceiling = ceiling_division(factor)
    if sizes or ceiling is None:
        return sizes or (_factor(factor, context),)
    return (f"{_factor(ceiling[0], context)}/{_factor(ceiling[1], context)}",)


def _finding(launch: Launch, grid: Grid, message: str, sizes: str, sized: tuple[str, ...]) -> Report:
    """The finding on `launch`, its grid growing as (or counting) `sizes`; on a launcher a
    function returns (`def _launcher(n): return kernel[(n, n)]`), relating the call that makes
    the grid (`_launcher(N)(x)`, the sizes it passes)."""
    made = launch.call.func if isinstance(launch.call.func, cst.Call) else launch.call
    return Report(
        launch.written_at,
        message.format(limit=MAX_PROGRAMS, grid=grid.quoted, sizes=sizes),
        related=((made, "the call passing the sizes"),) if launch.written is not None else (),
        facts={"sizes": sized},
        within=launch.scope,  # positions are looked for in that function, not the whole file
    )


def _axis_factors(
    axis: cst.BaseExpression, extent: tuple[str, ...] | None, capped: bool, scope: Scope, context: ModuleContext
) -> tuple[str, ...]:
    """An axis's factors in the message: its sizes, or as written when it could not be sized; of
    an axis capped at the limit (its caps listed first), the sizes of its other factors (`H` of
    `min(M, 65535) * H`)."""
    if capped:
        return extent or ()
    return extent if extent is not None else _unsized_factors(axis, scope, context)


def _sizes(extents: list[tuple[str, ...] | None]) -> tuple[str, ...]:
    """The sizes a grid's axes multiply, but for those it could not size."""
    return tuple(size for extent in extents for size in extent or ())


def _factor(axis: cst.BaseExpression, context: ModuleContext) -> str:
    """An axis the module does not size, as a factor of the program count: `NT`, `(a + b)`."""
    code = one_line(axis)
    return code if isinstance(axis, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) else f"({code})"


def _unsized_factors(axis: cst.BaseExpression, scope: Scope, context: ModuleContext) -> tuple[str, ...]:
    """An axis the module does not size, as factors of the program count (`NT`, `(a + b)`), but
    for those of its product that are one program whatever the sizes (`NV * NT` is `NT` with
    `NV = triton.cdiv(V, triton.next_power_of_2(V))`)."""
    operands = _multiplied(axis)
    kept = [operand for operand in operands if not _one_program(operand, scope, context)]
    return (_factor(axis, context),) if len(kept) == len(operands) else tuple(_factor(each, context) for each in kept)


def _multiplied(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of a product (`a`, `b`, `c` of `a * b * c`), or the value itself."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return [*_multiplied(value.left), *_multiplied(value.right)]
    return [value]


def _capped_at_the_limit(
    axis: cst.BaseExpression, scope: Scope, context: ModuleContext, hops: int = 0
) -> list[cst.BaseExpression]:
    """The factors of the axis capped at half the limit or more (`min(M, 65535)`, `M if M <
    MAX_CORES else MAX_CORES` with `MAX_CORES = 65535`, also made an `int`, a name bound only
    to one): up to the
    limit alone, but over it times any other factor of two programs or more."""
    if isinstance(axis, cst.Name) and hops < NAMES_FOLLOWED:
        values = context.host.values_of(axis.value, scope)
        return [axis] if values and all(_capped_at_the_limit(v, scope, context, hops + 1) for v in values) else []
    found: list[cst.BaseExpression] = []
    for written in _multiplied(axis):
        operand = without_int_conversion(written)
        if isinstance(operand, cst.Call) and (dotted_name(operand.func) or "") == "min":
            caps = [arg.value for arg in operand.args]
        elif isinstance(operand, cst.IfExp):
            caps = [operand.body, operand.orelse]
        else:
            continue
        if any(_at_least_half_the_limit(cap, scope, context) for cap in caps):
            found.append(written)
    return found


def _at_least_half_the_limit(value: cst.BaseExpression, scope: Scope, context: ModuleContext) -> bool:
    """An int at least half the limit, written or the value of a name bound only to such ints."""
    values = context.host.values_of(value.value, scope) if isinstance(value, cst.Name) else [value]
    found = [int_literal(each) for each in values]
    return bool(found) and all(each is not None and 2 * each > MAX_PROGRAMS for each in found)


def _one_program(axis: cst.BaseExpression, scope: Scope, context: ModuleContext, hops: int = 0) -> bool:
    """The axis is one program whatever the sizes: `triton.cdiv(D, BLOCK_D)` (`D // BLOCK_D`)
    with a block at least the size it divides (`BLOCK_D = D`, `triton.next_power_of_2(D)`,
    `max(..., D)`), or a name bound only to such a quotient."""
    if isinstance(axis, cst.Name) and hops < NAMES_FOLLOWED:
        values = context.host.values_of(axis.value, scope)
        return bool(values) and all(_one_program(value, scope, context, hops + 1) for value in values)
    if isinstance(axis, cst.Call) and (dotted_name(axis.func) or "").endswith("cdiv") and len(axis.args) == 2:
        size, block = (arg.value for arg in axis.args)
    elif isinstance(axis, cst.BinaryOperation) and isinstance(axis.operator, cst.FloorDivide):
        size, block = axis.left, axis.right
    else:
        return False
    return context.host.at_least(block, size, scope)


def _limit_lifted(launch: Launch, context: ModuleContext) -> bool:
    """The module lifts the limit for the launch: it sets `TRITON_ALL_BLOCKS_PARALLEL` to "1" or
    "true", or to a value it computes, at module level or in the launch's function, or a context
    manager of the module entered around the launch (or around every call of its function) does."""
    values = context.host.environment_values(LIMIT_SWITCH, launch.scope, launch.call)
    return any((str_literal(value) or "1").lower() in LIMIT_LIFTED for value in values)


@dataclass(frozen=True)
class _Guard:
    """What the tests around a launch bound of its grid: all of it (`whole`: its program count,
    `NT * B * H > BUDGET`, or what a predicate may, `use_chunked(T, B, H)`), or, in each case
    that may hold (`cases`: one for each part of `if B > 16 and H > 64: raise`), the sizes an
    ordering bounds from above (`K` of `if K > 256: raise`)."""

    whole: bool = False
    cases: tuple[BoundedSizes, ...] = (BoundedSizes(),)

    @cached_property
    def bounds_names(self) -> bool:
        """Some case bounds a name, which code after the test may rebind (`_bounded_at`)."""
        return not self.whole and any(case.names for case in self.cases)

    def __or__(self, other: _Guard) -> _Guard:
        """Both tests hold: in each pair of their cases, what either bounds."""
        if self.whole or other.whole:
            return _WHOLE
        return _Guard(cases=_distinct(mine | theirs for mine in self.cases for theirs in other.cases))

    def __and__(self, other: _Guard) -> _Guard:
        """One of the tests holds: the cases of each (one bounding all of the grid leaves none to report)."""
        if self.whole or other.whole:
            return other if self.whole else self
        return _Guard(cases=_distinct([*self.cases, *other.cases]))


def _distinct(cases: Iterable[BoundedSizes]) -> tuple[BoundedSizes, ...]:
    return tuple(dict.fromkeys(cases))


_WHOLE = _Guard(whole=True)
_NOTHING = _Guard()


@dataclass(frozen=True)
class _GridNames:
    """The names a grid reads, and those with the names read by their values (`T` for `NT` in
    `(NT, B * H)` with `NT = triton.cdiv(T, BT)`); the extents of known position it reads so
    (`x.shape[0]` for `m` of `m, k = x.shape`), and those with the extents their values read."""

    read: frozenset[str]
    behind: frozenset[str]
    extents_read: frozenset[tuple[str, int]]
    extents_behind: frozenset[tuple[str, int]]

    @classmethod
    def of(cls, sources: list[tuple[cst.CSTNode, Scope]], context: ModuleContext) -> _GridNames:
        """The names and extents the grid's `sources` (each with where its names resolve) read,
        but for the names of imported modules (`triton` of `triton.cdiv`, `torch`, `math`): a
        test reading one (`bk = triton.next_power_of_2(key_dim)`) reads no size."""
        host = context.host
        modules = context.imports.imported | context.imports.local_names
        return cls(
            frozenset().union(*(names_read(node) for node, _ in sources)) - modules,
            frozenset().union(*(host.names_behind(node, scope) for node, scope in sources)) - modules,
            frozenset().union(*(host.extents_read(node, scope) for node, scope in sources)),
            frozenset().union(*(host.extents_read(node, scope, behind=True) for node, scope in sources)),
        )

    def in_(self, node: cst.CSTNode, context: ModuleContext, scope: Scope) -> bool:
        """`node` reads some of the grid's names or extents (`read_in`)."""
        return bool(self.read_in(node, context, scope))

    def sizes_in(self, node: cst.CSTNode, context: ModuleContext, scope: Scope) -> BoundedSizes:
        """The grid's names and extents `node` reads (`read_in`) but for tensors read only in
        what holds none of their sizes (`x` of `x.ndim`, `x.stride(0)`, `x.dtype`)."""
        read = self.read_in(node, context, scope)
        owners = {
            id(sub.value)
            for sub in walk(node)
            if isinstance(sub, cst.Attribute) and isinstance(sub.value, cst.Name) and sub.attr.value not in SIZES_HELD
        }
        return BoundedSizes(read.names - (names_read(node) - names_read(node, skipped=owners)), read.extents)

    def read_in(self, node: cst.CSTNode, context: ModuleContext, scope: Scope) -> BoundedSizes:
        """The grid's names `node` reads: one of the grid's or of their values' (`T` in `if T >
        4096:` for `NT = triton.cdiv(T, BT)`), or one of the grid's that the value of a name it
        reads reads (`NT`, `B`, `H` for `if n > BUDGET:` with `n = NT * B * H`); so too for the
        extents of known position, written or bound to a name (`x.shape[0] > 128` for `m` of `m,
        k = x.shape`, before or after `m` is bound). A tensor read only in such extents is not
        read itself: `x.shape[1] > 128` reads nothing of the grid `(m, n)` when `m, k = x.shape`
        and `n = w.shape[0]`. Not when the two meet only in what their values read (the tensor
        `x` of `hidden = x.shape[-1]` and of `B, T = x.shape[:2]`), nor through what the value of
        a name the test reads only divides by or subtracts (`M` for `if K == 1:` with `K =
        x.numel() // M // N`: `growing`)."""
        host = context.host
        return BoundedSizes(
            frozenset(
                host.names_beside_extents(node, scope) & self.behind
                | host.names_behind(node, scope, beside_extents=True, growing=True) & self.read
            ),
            frozenset(
                host.extents_read(node, scope) & self.extents_behind
                | host.extents_read(node, scope, behind=True, growing=True) & self.extents_read
            ),
        )


def _size_guard(launch: Launch, grid: Grid, context: ModuleContext, chunked: bool = False) -> _Guard:
    """What the tests around the launch bound of its grid: an `if` around it testing the grid or
    sizes it is made of (`if grid[0] * grid[1] > BUDGET: chunked(...) else: kernel[grid](...)`),
    an early exit of its function on such a test (`if K > 256: raise`, or `return`), an `assert`
    before it (`assert K <= 256`), or, for all of it, the same around every call of its function
    in the module for what it passes for the grid's parameters (`if grid_fits(B, H, T): expand(x,
    B, H, T)`). The sizes are those read where the grid is written, a grid function nested in
    the launching one included; of the axes a host chunking loop leaves whole (`chunked`), those
    axes only: a caller's loop passing the chunk bounds the others, not them."""
    sources = [(launch.grid_node, launch.scope), (grid.written, grid.scope)]
    if isinstance(grid.scope, cst.FunctionDef) and _written_apart(grid, launch, context):
        # a list added to (`grid.append(B)`) or a tuple bound to the name launched (`grid = (N, B)`):
        # its axes are written there, each read so while the names it reads hold what they held there
        # (not `B = x.shape[2]` nor `x = x.transpose(0, 1)` after it). The launched name stays a
        # source: a test of it (`assert grid[0] <= 65535`) tests what the launch gets, whatever the
        # names hold later; but through it a test reads those names as bound anywhere, so `assert B
        # <= 16` after `grid = (N, B); B = x.shape[2]` is taken to bound the grid's `B` (a known miss)
        sources = sources + [
            (axis, grid.scope) for axis in grid.axes if context.host.reads_as_written(axis, launch.call, grid.scope)
        ]
    if chunked:
        sources = [(axis, grid.scope) for axis in grid.axes]
    grid_names = _GridNames.of(sources, context)
    guard = _site_guard(launch, grid_names, context) | _shrinking_loops_guard(grid, grid_names, context)
    passed_bounded = _callers_bound(launch.scope, grid_names, context)
    if passed_bounded:
        guard = guard | _bounded_at(_Guard(cases=(BoundedSizes(passed_bounded),)), None, launch, context)
    whole = guard.whole or _callers_guarded(launch.scope, grid_names, context) or _helper_guarded(launch, context)
    return _WHOLE if whole else guard


def _written_apart(grid: Grid, launch: Launch, context: ModuleContext) -> bool:
    """The grid's axes are written before the launch, apart from it: added to a list (`grid`, the
    name read, is what the grid quotes) or a tuple or list the launching function binds to the name
    the launch reads (not one a grid function returns, nor a lambda's, read when it launches)."""
    if isinstance(grid.written, cst.Name):
        return True
    return (
        isinstance(grid.written, cst.Tuple | cst.List)
        and isinstance(launch.grid_node, cst.Name)
        and grid.scope is launch.scope
        and grid.written in context.host.binders
    )


def _helper_guarded(launch: Launch, context: ModuleContext) -> bool:
    """A forwarding helper the launch goes through bounds the whole grid it is passed before
    launching (`def _run(grid, *args): if grid[0] * grid[1] > 65535: raise ...`)."""
    forwarded = launch.forwarded
    while forwarded is not None and not forwarded.grid_only:
        inner = forwarded.launch
        guard = _site_guard(inner, _GridNames.of([(inner.grid_node, inner.scope)], context), context)
        passed = inner.grid_node.value if isinstance(inner.grid_node, cst.Name) else None
        if guard.whole or all(passed in case.names for case in guard.cases):
            return True
        forwarded = inner.forwarded
    return False


def _shrinking_loops_guard(grid: Grid, names: _GridNames, context: ModuleContext) -> _Guard:
    """What the `while` loops before the grid is written bound, their tests failing after them:
    `while axis0 * axis1 >= 65536: axis0 //= 2` before `return (axis0, axis1)` in a grid
    function bounds the whole grid (a loop holding the grid, where its test holds, bounds
    nothing)."""
    if not isinstance(grid.scope, cst.FunctionDef):
        return _NOTHING
    loops = context.host.written_order(grid.scope).loops_before(grid.written)
    guards = (_guard(loop.test, False, names, context, grid.scope, "orderings") for loop in loops)
    return reduce(operator.or_, guards, _NOTHING)


def _site_guard(
    site: CallSite, names: _GridNames, context: ModuleContext, in_caller: bool = False, ordered: bool = False
) -> _Guard:
    """What the tests around the call, the early exits before it in its function and the
    `assert`s there bound of the sizes `names` holds (in a caller, all of them or nothing: by
    passing them to a function of the module that orders values, `if grid_fits(B, H, T):`;
    `ordered`, only what they order or pin: `_callers_bound`)."""
    read_for: _ReadFor = "orderings" if ordered else "predicates" if in_caller else "tests"
    # each test with whether it holds at the call (an early exit's fails after it) and where it is
    tests: list[tuple[cst.BaseExpression, bool, _ReadFor, cst.CSTNode]] = [
        (test, holds, read_for, test) for test, holds in site.arms
    ]
    asserted: _ReadFor = "predicates" if in_caller and not ordered else "orderings"
    tests += [
        (test, holds, asserted if holds else read_for, since) for test, holds, since in context.host.checks_before(site)
    ]
    # each launch after n `assert`s reads n tests: a lookup each (`_guards_read`); an equal guard
    # of a test in the same segment (no binding written between: `WrittenOrder.segments`), or
    # bounding no name, stays as bounded at the call (`_bounded_at`, read once), and a guard of one case met again adds
    # nothing (it bounds the same sizes in every case)
    known = _guards_read(names, context, site.scope)
    segments = context.host.written_order(site.scope).segments if site.scope is not None else {}
    read_at: dict[tuple[int, object], _Guard | None] = {}  # by guard and segment; None: one case, kept
    guards: dict[object, _Guard] = {}
    for place, (test, holds, read, since) in enumerate(tests):
        guard = known.get((test, holds, read)) or _guard(test, holds, names, context, site.scope, read)
        at = (id(guard), segments.get(since, place) if guard.bounds_names else None)
        if at in read_at:
            bounded = read_at[at]
            if bounded is not None:
                guards.setdefault(place, bounded)
            continue
        bounded = _bounded_at(guard, since, site, context)
        single = len(bounded.cases) == 1
        guards.setdefault((bounded.whole, bounded.cases[0]) if single else place, bounded)
        read_at[at] = None if single else bounded
    return reduce(operator.or_, guards.values(), _NOTHING)


def _bounded_at(guard: _Guard, since: cst.CSTNode | None, site: CallSite, context: ModuleContext) -> _Guard:
    """What `guard`, of a test at `since` (the entry of the call's function when None), still
    bounds at the call: not a name rebound between the two to a value it leaves unbounded (`if n
    <= 1024:`, then `n = n * M`: `HostIndex.bounded_at`)."""
    if not guard.bounds_names:
        return guard
    cases = (context.host.bounded_at(case, since, site.call, site.scope) for case in guard.cases)
    return _Guard(cases=_distinct(cases))


@dataclass(frozen=True)
class _Chunks:
    """What a host chunking loop around a launch carries: `names`, the loop's targets (`b0, bn`
    of `for b0, bn in _batch_chunks(B)`; an axis reads them through a name bound from them, `n =
    min(C, N - start)`), or the parameters of the launching function each caller in such a loop
    passes them for; `sizing`, the names its chunk size reads (`step` of `range(0, B, step)`,
    the arguments of a helper's call)."""

    names: frozenset[str]
    sizing: frozenset[str]


def _chunking(launch: Launch, grids: Iterable[Grid], context: ModuleContext) -> _Chunks | None:
    """A host `for` loop around the launch chunks its grid: the grid, or an argument of an offset
    (`BH_OFFSET=bh_off`), reads the loop's target (`for bh_off in range(0, B * H, max_bh)`: `n =
    min(max_bh, B * H - bh_off)`, a name bound from it, counts), or a `while` loop's counters
    (`while_counters`: `start` of `while start < n:` ... `start += CH`). Or every call of the
    launching function in the module (at least one) is in such a loop, passing a value of its
    target or counter for a parameter the grid or such an argument reads (`_called_in_loops`). A loop whose target
    neither reads (`for i in range(0, n, 64):` walking diagonal blocks, each launch the whole
    grid) chunks nothing: None."""
    host = context.host
    read = set().union(*(host.names_behind(axis, grid.scope, chained=True) for grid in grids for axis in grid.axes))
    for arg in launch.args:
        if _offset_like(arg):
            read |= host.names_behind(arg.value, launch.args_scope, chained=True)
    if launch.scope is None:
        return None
    chunking = [
        loop
        for loop in launch.loops
        if names_read(loop.target) & read and _walks_chunks(loop.iter, launch.scope, context)
    ]
    counters = (
        set().union(*(names for _, names in while_counters(launch.call, context.host.written_order(launch.scope))))
        & read
    )
    if chunking or counters:
        targets = counters.union(*(names_read(loop.target) for loop in chunking))
        sizing = set().union(
            *(_chunk_size(loop.iter, launch.args_scope, context) for loop in chunking),
            *(host.names_behind(value, launch.scope) - counters for value in _counted_by(counters, launch, context)),
        )
        return _Chunks(frozenset(targets), frozenset(sizing))
    params = read & {param.name.value for param in all_params(launch.scope)}
    if not (params and _called_in_loops(launch.scope, params, context)):
        return None
    sites = context.host.known_callers(launch.scope)
    passed = frozenset(
        name for name in params if all(_passes_a_target(site, launch.scope, {name}, context) for site in sites)
    )
    return _Chunks(passed, frozenset())


def _walks_chunks(iterable: cst.BaseExpression, scope: Scope, context: ModuleContext, hops: int = 0) -> bool:
    """A `for` loop over `iterable` may walk chunks of a size: a call (`range(0, B, step)`, a
    chunk helper, `x.split(CH)`; of `enumerate`, `zip`, `reversed`... when one of what they are
    given does), a comprehension over one, or a name bound to one. Not tensors or sizes
    (`for grad in (dx, dw):`, `for n in sizes:` with `sizes` a parameter): each trip launches a
    whole grid of its own."""
    if isinstance(iterable, cst.Call):
        if dotted_name(iterable.func) in _PASSING_ITEMS:
            return any(_walks_chunks(arg.value, scope, context, hops) for arg in iterable.args)
        return True
    if isinstance(iterable, (cst.GeneratorExp, cst.ListComp, cst.SetComp)):
        return _walks_chunks(iterable.for_in.iter, scope, context, hops)
    if isinstance(iterable, cst.Name) and hops < NAMES_FOLLOWED:
        return any(
            _walks_chunks(value, scope, context, hops + 1) for value in context.host.values_of(iterable.value, scope)
        )
    return False


def _counted_by(counters: set[str], launch: Launch, context: ModuleContext) -> Iterator[cst.BaseExpression]:
    """The values the launch's function binds the counters of a `while` loop to (`0`, `start +
    CH` of `start += CH`): what they read sizes the chunk."""
    for name in sorted(counters):
        yield from context.host.values_of(name, launch.scope)


def _chunk_size(iterable: cst.BaseExpression, scope: Scope, context: ModuleContext) -> set[str]:
    """The names a chunking loop's chunk size reads: the step of `range(start, stop, step)`,
    the arguments of another call (`_batch_chunks(B)`)."""
    if isinstance(iterable, cst.Call):
        args = iterable.args
        if dotted_name(iterable.func) == "range":
            args = args[2:]
        return set().union(*(context.host.names_behind(arg.value, scope) for arg in args))
    return set()


def _unchunked(
    grid: Grid, chunks: _Chunks, context: ModuleContext
) -> tuple[Grid, tuple[cst.BaseExpression, ...]] | None:
    """The axes of `grid` a chunking loop leaves whole, as a grid of them, and the factors it
    chunks: those reading what it carries (`(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))` in
    `for b0, bn in _batch_chunks(B)` keeps the last two and chunks `bn`), an axis's factors so
    (`triton.cdiv(m, 64)` of `bn * triton.cdiv(m, 64)`, an axis of its own there; `M` of `rows`
    bound to `bn * M` in the loop, also behind `total = rows * H`: `_chunked_parts`). None when
    it chunks the whole grid: every factor reads it, or none does (an offset argument chunks it,
    `BH_OFFSET=bh_off`), or its chunk size reads the sizes of the others (`range(0, B, 65535 //
    (NM * NN))`: a chunk bounding the product)."""

    def reads_the_chunk(factor: cst.BaseExpression) -> bool:
        return bool(context.host.names_behind(factor, grid.scope, chained=True) & chunks.names)

    factors = [
        part
        for axis in grid.axes
        for factor in _multiplied(axis)
        for part in _chunked_parts(factor, grid.scope, reads_the_chunk, context)
    ]
    chunked = tuple(factor for factor in factors if reads_the_chunk(factor))
    kept = tuple(factor for factor in factors if not any(factor is each for each in chunked))
    if not chunked or not (kept or any(context.host.at_most(each, grid.scope) for each in chunked)):
        return None
    if _GridNames.of([(axis, grid.scope) for axis in kept], context).read & chunks.sizing:
        return None
    return replace(grid, axes=kept), chunked


def _chunked_parts(
    factor: cst.BaseExpression,
    scope: Scope,
    reads_the_chunk: Callable[[cst.BaseExpression], bool],
    context: ModuleContext,
    split: frozenset[str] = frozenset(),
) -> list[cst.BaseExpression]:
    """The factors `factor` stands for where a chunking loop bounds some of them: for a name
    reading what the loop carries, the operands of the product it is bound to, its one binding,
    each taken so in turn (`bn`, `M` of `rows` with `rows = bn * M`; `bn`, `M`, `H` of `total`
    with `total = rows * H`); else the factor itself."""
    if not isinstance(factor, cst.Name) or factor.value in split or not reads_the_chunk(factor):
        return [factor]
    values = context.host.values_of(factor.value, scope)
    product = _multiplied(values[0]) if len(values) == 1 else []
    if len(product) < 2:
        return [factor]
    split |= {factor.value}
    return [part for operand in product for part in _chunked_parts(operand, scope, reads_the_chunk, context, split)]


def _offset_like(arg: cst.Arg) -> bool:
    """An argument of an offset: its keyword or a name it reads says so (`BH_OFFSET=`, `i_off`)."""
    words = [arg.keyword.value] if arg.keyword is not None else []
    return any("off" in word.lower() for word in [*words, *names_read(arg.value)])


def _called_in_loops(function: Scope, params: set[str], context: ModuleContext) -> bool:
    """Every call of the launching function in the module (at least one) is in a host `for`
    loop, or a `while` loop stepping a counter by a chunk, as a launch written in one is: a
    chunking loop calling a wrapper (`for off in range(0, NT, max_nt): _launch(off, ...)`, `while
    off < NT: _launch(off, ...); off += max_nt`), one caller up. Not further: a loop that far
    from the launch chunks something else as often as the grid (FlagGems' `fused_moe.py`
    loops over 16K-token chunks, and the grid of each chunk still passes 65535)."""
    sites = context.host.known_callers(function) if function is not None else []
    return bool(sites) and all(_passes_a_target(site, function, params, context) for site in sites)


def _passes_a_target(site: CallSite, function: Scope, params: set[str], context: ModuleContext) -> bool:
    """The call, in host `for` loops or `while` loops stepping a counter by a chunk
    (`while_counters`: `while s < n:` ... `s += CH`), passes a value reading the target or a
    counter of one of them for one of `params` of the function it calls."""
    if function is None:
        return False
    targets = set().union(
        *(names_read(loop.target) for loop in site.loops if _walks_chunks(loop.iter, site.scope, context))
    )
    if site.scope is not None:
        targets |= set().union(
            *(names for _, names in while_counters(site.call, context.host.written_order(site.scope)))
        )
    passed = (passed_for(site.call, function, name) for name in params)
    return any(
        value is not None and context.host.names_behind(value, site.scope, chained=True) & targets for value in passed
    )


def _callers_guarded(function: Scope, grid_names: _GridNames, context: ModuleContext, up: int = _CALLERS_UP) -> bool:
    """The grid reads parameters of the launching function, and each call of it in the module
    (at least one: `HostIndex.bounded_by_callers`, every parameter or none) is guarded for the
    arguments it passes for them, or passes them on from parameters of its own function each
    call of which is (`up` callers up: a wrapper between the guarded call and the launch), or,
    one caller up, is in a host `for` loop chunking the grid (`_passes_a_target`: the guarded
    call and the chunked one of a dense path and its fallback). Only a predicate of the module
    counts there: a caller's names are whole tensors and objects (`q`, `split_info`), which a
    test of one extent (`q.shape[-1] <= 128`), `len(g.shape) == 4` or a truth test bounds
    nothing of."""
    if function is None:
        return False
    params = {param.name.value for param in all_params(function)} & grid_names.behind

    def guarded(site: CallSite, passed: dict[str, cst.BaseExpression]) -> set[str]:
        if up == _CALLERS_UP and _passes_a_target(site, function, params, context):
            return params
        names = _GridNames.of([(value, site.scope) for value in passed.values()], context)
        whole = bool(names.read) and (
            _site_guard(site, names, context, in_caller=True).whole
            or (up > 1 and _callers_guarded(site.scope, names, context, up - 1))
        )
        return params if whole else set()

    return bool(context.host.bounded_by_callers(function, params, guarded))


def _callers_bound(
    function: Scope, grid_names: _GridNames, context: ModuleContext, up: int = _CALLERS_UP
) -> frozenset[str]:
    """The parameters of the launching function the grid reads that each call of it in the
    module (at least one) passes a size bounded there (`HostIndex.bounded_by_callers`): a value
    the caller orders from above or pins before the call, as a test in the launching function
    would (`if spatial_dim >= 65536: raise`, `assert n < 65536`, an `if` around the call;
    `_site_guard`, `ordered`), or passes on from a parameter of its own that its callers bound so
    (`up` callers up). Only a size counts: a tensor passed whole (`q`) is not bounded by a test
    of one of its extents."""
    if function is None or up == 0:
        return frozenset()
    host = context.host

    def bounded(site: CallSite, passed: dict[str, cst.BaseExpression]) -> set[str]:
        sized = {name: value for name, value in passed.items() if host.axis_extents((value,), site.scope)[0]}
        if not sized:
            return set()
        names = _GridNames.of([(value, site.scope) for value in sized.values()], context)
        guard = _site_guard(site, names, context, ordered=True)
        upstream = _callers_bound(site.scope, names, context, up - 1)
        if upstream:
            guard = guard | _bounded_at(_Guard(cases=(BoundedSizes(upstream),)), None, site, context)
        return {
            name
            for name, value in sized.items()
            if guard.whole or all(host.extent_within(value, site.scope, case) == () for case in guard.cases)
        }

    params = {param.name.value for param in all_params(function)} & grid_names.behind
    return host.bounded_by_callers(function, params, bounded)


# What the parts of a test (but `and`, `or` and `not`) are read for: an ordering, or any test
# that `_tests_sizes` ("tests": an `if`); orderings only ("orderings": an `assert`, whose other
# tests check a layout, `assert is_weak_contiguous(w)`); a predicate of the module passed the
# sizes ("predicates": in a caller, whose names are whole tensors and objects)
_ReadFor = Literal["tests", "orderings", "predicates"]


def _guard(
    test: cst.BaseExpression,
    holds: bool,
    grid_names: _GridNames,
    context: ModuleContext,
    scope: Scope,
    read_for: _ReadFor,
) -> _Guard:
    """What a test, holding or failing as `holds` says, bounds of the grid's sizes: in each case
    it holds in (`holding_cases`: through `not`, `and`, `or`, and a name bound once to a test,
    `ok = m == 2 and n == 4`, then `if ok:`: `HostIndex.test_bound`), what its parts bound. An
    ordering bounds what it orders from above (`_ordering_guard`); any other part, as
    `read_for` says, all of them when it `_tests_sizes` or passes them to a predicate. Read once
    per test and grid names (`_GUARDS`): every launch after an `assert` reads it, and launches
    on the same sizes share its answer."""
    known = _guards_read(grid_names, context, scope)
    found = known.get((test, holds, read_for))
    if found is None:
        read = _read_guard(test, holds, grid_names, context, scope, read_for)
        found = known[test, holds, read_for] = _EQUAL_GUARDS.setdefault(context.host, {}).setdefault(read, read)
    return found


def _guards_read(
    grid_names: _GridNames, context: ModuleContext, scope: Scope
) -> dict[tuple[cst.BaseExpression, bool, str], _Guard]:
    """`_guard`'s answers for the grid names in `scope`, by test, whether it holds and what its
    parts are read for; kept per module."""
    return _GUARDS.setdefault(context.host, {}).setdefault((grid_names, scope), {})


_GUARDS: WeakKeyDictionary[
    HostIndex, dict[tuple[_GridNames, Scope], dict[tuple[cst.BaseExpression, bool, str], _Guard]]
] = WeakKeyDictionary()
_EQUAL_GUARDS: WeakKeyDictionary[HostIndex, dict[_Guard, _Guard]] = WeakKeyDictionary()  # one of equal guards


def _read_guard(
    test: cst.BaseExpression,
    holds: bool,
    grid_names: _GridNames,
    context: ModuleContext,
    scope: Scope,
    read_for: _ReadFor,
) -> _Guard:
    def part_guard(part: cst.BaseExpression, part_holds: bool) -> _Guard:
        if read_for == "predicates":
            return _WHOLE if _passes_to_a_predicate(part, grid_names, context, scope) else _NOTHING
        ordered = _ordering_guard(part, part_holds, grid_names, context, scope)
        if ordered is None:
            ordered = _equality_guard(part, part_holds, grid_names, context, scope)
        if ordered is not None:
            return ordered
        return _WHOLE if read_for == "tests" and _tests_sizes(part, grid_names, context, scope) else _NOTHING

    cases = holding_cases(test, holds, lambda name: context.host.test_bound(name, scope))
    return reduce(operator.and_, (reduce(operator.or_, (part_guard(*part) for part in case)) for case in cases))


def _ordering_guard(
    test: cst.BaseExpression, holds: bool, grid_names: _GridNames, context: ModuleContext, scope: Scope
) -> _Guard | None:
    """For an ordering (`K > 256`, `NT * B * H <= BUDGET`, `0 < K <= 256`: each of its
    comparisons holds when it holds, one fails when it fails), the grid's sizes it bounds from
    above, holding or failing as `holds` says: those its smaller side reads (`K` of `K > 256`
    failing, all of `NT * B * H <= BUDGET` holding: a product of sizes bounds each). Not
    against another runtime size (`if idx.numel() < batch: raise` leaves `batch <=
    idx.numel()`, no bound), nor a value bounded whatever they are (`BK > 256` bounds `K` with
    `BK = max(triton.next_power_of_2(K), 16)`, at least `K`, not with `BK = min(...,
    128)`). None for any other test."""
    if not (isinstance(test, cst.Comparison) and all(isinstance(c.operator, ORDERINGS) for c in test.comparisons)):
        return None
    guards = []
    for left, comparison, right in links(test):
        sides = ordered_sides(left, comparison, right, holds)
        if sides is None:
            return None
        below, above = sides
        below = context.host.list_item(below, scope) or below  # `grid[0]` of `grid.append(n)`: `n`
        bounded = grid_names.sizes_in(below, context, scope)
        orders_sizes = bounded and not _is_bounded(below, context, scope) and not _is_a_size(above, context, scope)
        guards.append(_Guard(cases=(bounded,)) if orders_sizes else _NOTHING)
    return reduce(operator.or_ if holds else operator.and_, guards)


def _equality_guard(
    test: cst.BaseExpression, holds: bool, grid_names: _GridNames, context: ModuleContext, scope: Scope
) -> _Guard | None:
    """For `a == b` holding (`a != b` failing: `assert v.shape[2] == 24`, `if HV != 24: raise`),
    the grid's size one side is (a name, or an extent of known position) when the other is
    bounded whatever the sizes: that side is the other's value there; so too for `a in (1, 2)`
    holding (`a not in (1, 2)` failing) when each item of the tuple, list or set written there
    (or held by a name bound once) is bounded: `a` is one of them; and for a tuple of sizes in
    tuples as long (`_pinned_elements`), each size its place there pins. None for any other test, and for an equality between
    sizes, of what is no size (`len(q.shape) == 4`, a rank; `len(grid) == 2` of a list the
    function fills a bounded number of times: its length, not its items) or of what the grid does
    not read (a variant picked: `if BT == 16:`)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    comparing = test.comparisons[0].operator
    sides = (test.left, test.comparisons[0].comparator)
    if isinstance(comparing, cst.In) if holds else isinstance(comparing, cst.NotIn):
        items = context.host.items_held(sides[1], scope)
        pairs = [] if items is None else [(sides[0], items), *_pinned_elements(sides[0], items, context, scope)]
    elif isinstance(comparing, cst.Equal) if holds else isinstance(comparing, cst.NotEqual):
        pairs = [(sides[0], [sides[1]]), (sides[1], [sides[0]])]
    else:
        return None
    pinned = [
        bounded
        for side, others in pairs
        if isinstance(side, cst.Name) or context.host.extent_position(side, scope) is not None
        if (bounded := grid_names.sizes_in(side, context, scope))
        and not _is_bounded(side, context, scope)
        and all(not grid_names.in_(other, context, scope) and _is_bounded(other, context, scope) for other in others)
    ]
    return _Guard(cases=(reduce(operator.or_, pinned),)) if pinned else None


def _pinned_elements(
    side: cst.BaseExpression, items: list[cst.BaseExpression], context: ModuleContext, scope: Scope
) -> list[tuple[cst.BaseExpression, list[cst.BaseExpression]]]:
    """For a tuple of sizes in a sequence of tuples as long (`shape in SUPPORTED`, `shape =
    (b, h)`, `SUPPORTED = ((1, 8), (2, 16))`, through names), each element with the items at
    its place: `b` is 1 or 2, `h` 8 or 16."""
    elements = context.host.items_held(side, scope)
    rows = [context.host.items_held(item, scope) for item in items]
    if elements is None or any(row is None or len(row) != len(elements) for row in rows):
        return []
    return [(element, [row[place] for row in rows if row is not None]) for place, element in enumerate(elements)]


def _sized_side(test: cst.BaseExpression, grid_names: _GridNames, context: ModuleContext, scope: Scope) -> bool | None:
    """For one ordering with the grid's names on one side only, whether that side is the left;
    None for any other test."""
    if not (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, ORDERINGS)
    ):
        return None
    sized_left = grid_names.in_(test.left, context, scope)
    return None if sized_left == grid_names.in_(test.comparisons[0].comparator, context, scope) else sized_left


def _is_bounded(value: cst.BaseExpression, context: ModuleContext, scope: Scope) -> bool:
    """`value` is bounded whatever the sizes it reads (`min(triton.next_power_of_2(K), 128)`,
    `4096 // K`, or a name bound only to such a value): ordering it bounds none of them."""
    return context.host.axis_extents((value,), scope)[0] == ()


def _is_a_size(value: cst.BaseExpression, context: ModuleContext, scope: Scope) -> bool:
    """`value` multiplies runtime sizes (`idx.numel()`, `len(cu_seqlens) - 1`): it bounds
    nothing it is ordered against."""
    return bool(context.host.axis_extents((value,), scope)[0])


def _tests_sizes(test: cst.BaseExpression, grid_names: _GridNames, context: ModuleContext, scope: Scope) -> bool:
    """The test orders a value made of the grid's names (`NT * B * H > BUDGET`, not against
    another runtime size: `n < x.shape[0]`) or passes one to a function, which may (`if
    use_chunked(T, B, H):`), in the test or, for a name read as the test's truth value, in its
    value (`use_seq = use_seq_path(T)`, then `if use_seq:`). An equality, identity or truth
    test (`if BT == 16:`, `if out is None:`, `if out.numel():` with `out =
    torch.empty_like(x)`) picks a variant: it bounds nothing, and neither do `all(...)` /
    `any(...)` of such tests, builtins (`len(x.shape) != 3`, `isinstance(x, T)`) nor, inside
    an equality or identity, a call of another module (`torch.numel(x) == 0`)."""
    host = context.host
    sources = [test, *(host.values_of(test.value, scope) if isinstance(test, cst.Name) else ())]
    nodes = [node for source in sources for node in walk(source)]
    compared = {id(sub) for node in nodes if _is_equality(node) for sub in walk(node)}
    for node in nodes:
        if isinstance(node, cst.Comparison) and any(isinstance(c.operator, ORDERINGS) for c in node.comparisons):
            sized_left = _sized_side(node, grid_names, context, scope)
            if sized_left is not None and _is_a_size(
                node.comparisons[0].comparator if sized_left else node.left, context, scope
            ):
                continue
            tested: list[cst.CSTNode] = [node]
        elif isinstance(node, cst.Call) and not _tests_nothing(node, context, id(node) in compared):
            tested = [arg.value for arg in node.args]
        else:
            continue
        if any(grid_names.in_(part, context, scope) for part in tested):
            return True
    return False


def _is_equality(node: cst.CSTNode) -> bool:
    """`a == b`, `a != b`, `a is b`, `a in b`...: a comparison that orders nothing."""
    return isinstance(node, cst.Comparison) and not any(isinstance(c.operator, ORDERINGS) for c in node.comparisons)


def _passes_to_a_predicate(
    test: cst.BaseExpression, grid_names: _GridNames, context: ModuleContext, scope: Scope
) -> bool:
    """The test calls a function of the module that orders values (`_may_order`), passing it
    one of the grid's names (`if grid_fits(B * H, T):`)."""
    for node in walk(test):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            functions = context.host.functions.get(node.func.value, [])
            may_order = any(_may_order(function, context) for function in functions)
            if may_order and any(grid_names.in_(arg.value, context, scope) for arg in node.args):
                return True
    return False


def _tests_nothing(call: cst.Call, context: ModuleContext, compared: bool) -> bool:
    """`all(...)` / `any(...)`, whose result is their items' truth (the items are the tests),
    another builtin (`len`, `tuple`, `isinstance`), a function of the module that orders nothing
    and calls nothing but those with arguments (`def _native_required(ts): return
    ts[0].device.type != "npu" or torch.is_grad_enabled()`), or, its result `compared` for
    equality or identity, any function but one of the module that may order: none of them can
    bound a size."""
    callee = dotted_name(call.func) or ""
    functions = context.host.functions.get(callee, []) if isinstance(call.func, cst.Name) else []
    if not functions:
        return compared or callee in _ORDER_NOTHING
    return not any(_may_order(function, context) for function in functions)


def _may_order(function: cst.FunctionDef, context: ModuleContext, seen: set[cst.FunctionDef] | None = None) -> bool:
    """The function may order the sizes it is given: it orders a value read from its parameters
    against a bounded one (`T * B > BUDGET`; not against another runtime size, `last <=
    x.numel()`, nor a sign test, `x.stride(0) < 0`), caps such a value with `min` (`min(n,
    4096)`; `max(1, n)` grows with `n`, `min(n, m)` with both), or calls a function of the
    module that may (`_FUNCTIONS_FOLLOWED` functions followed at most)."""
    seen = seen if seen is not None else set()
    seen.add(function)
    params = {param.name.value for param in all_params(function)}
    for node in walk(function.body):
        if isinstance(node, cst.Comparison):
            for left, comparison, right in links(node):
                if isinstance(comparison, ORDERINGS) and (
                    _orders_against_a_bound(left, right, params, function, context)
                    or _orders_against_a_bound(right, left, params, function, context)
                ):
                    return True
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name):
            if node.func.value == "min":
                values = [arg.value for arg in node.args]
                if any(
                    _orders_against_a_bound(value, cap, params, function, context)
                    for value in values
                    for cap in values
                    if cap is not value
                ):
                    return True
            elif len(seen) <= _FUNCTIONS_FOLLOWED and any(
                _may_order(callee, context, seen)
                for callee in context.host.functions.get(node.func.value, [])
                if callee not in seen
            ):
                return True
    return False


def _orders_against_a_bound(
    value: cst.BaseExpression, bound: cst.BaseExpression, params: set[str], function: Scope, context: ModuleContext
) -> bool:
    """`value` reads the function's parameters and `bound` is bounded (a literal but a sign test's
    0 or 1, a module constant), or unknown and reads none of them (an imported budget)."""
    if _is_sign_literal(bound) or not _reads_parameters(value, params, function, context):
        return False
    extent = context.host.axis_extents((bound,), function)[0]
    return extent == () or (extent is None and not _reads_parameters(bound, params, function, context))


def _is_sign_literal(value: cst.BaseExpression) -> bool:
    """`0`, `1`, `-1`, `0.0`: what `x.stride(0) < 0` or `n >= 1` orders against, no bound above."""
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        return isinstance(value.expression, (cst.Integer, cst.Float))
    return isinstance(value, (cst.Integer, cst.Float)) and value.evaluated_value <= 1


def _reads_parameters(value: cst.BaseExpression, params: set[str], function: Scope, context: ModuleContext) -> bool:
    """`value` reads one of `params`, itself or through the names it reads, bound in `function`
    (`last` of `last = (num_tokens - 1) * x.stride(0)` with `num_tokens = x.shape[0]`)."""
    read: set[str] = set()
    fresh = names_read(value)
    for _ in range(NAMES_FOLLOWED):
        if fresh & params:
            return True
        read |= fresh
        fresh = {
            behind for name in fresh for bound in context.host.values_of(name, function) for behind in names_read(bound)
        }
        fresh -= read
    return bool(fresh & params)
