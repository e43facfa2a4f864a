//! `warpscope`: the command line over warpscope-core. Runs, traces, sweeps and inspects kernel
//! files; every problem with the input is printed as a located diagnostic with a non-zero exit.

/// `println!` that ignores a closed stdout (`warpscope run f.sass | head`) instead of panicking.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod calibrate;
mod cfg_cmd;
mod check_cmd;
mod compile_cmd;
mod counters_cmd;
mod cuda_lines;
mod figure;
mod launch_report;
mod link_arg;
mod load;
mod nvcc;
mod program;
mod report;
mod results;
mod sweep;
mod trace;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use load::Common;

#[derive(Parser)]
#[command(name = "warpscope", version, about = "Step a GPU warp through a kernel under a reconvergence model")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a kernel to the end and print its metrics.
    Run {
        #[command(flatten)]
        common: Common,
        /// One JSON object: the metrics, stop_reason, block_counts, and what the run computed:
        /// buffers (each buffer's final contents by name), params (each param's value) and
        /// output (what printf printed: step, lane, text, in the order printed).
        #[arg(long)]
        json: bool,
        /// Print only what the kernel's printf printed, as a GPU's stdout shows it (the texts
        /// in the order printed, no tags; a run that ends early: why on stderr, exit 3).
        #[arg(long, conflicts_with_all = ["json", "dump"])]
        printed: bool,
        /// Print only this buffer's final contents, one value a line (a run that ends early:
        /// its contents at the stop, why on stderr, exit 3).
        #[arg(long, value_name = "NAME", conflicts_with = "json")]
        dump: Option<String>,
    },
    /// Run the same kernel and inputs under several models, or two kernels under one model
    /// (`--with`), and print the paper's metrics side by side.
    Compare {
        #[command(flatten)]
        common: Common,
        /// The models, comma-separated (default: kepler,pdom,tf-stack,tf-sandy,volta).
        #[arg(long, conflicts_with = "with")]
        models: Option<String>,
        /// Another kernel file to put beside this one, both under one model (`--model`, else
        /// the first file's), each with its own `//@` inputs: two columns, one per kernel. A
        /// permalink that compares two kernels needs none.
        #[arg(long, value_name = "FILE")]
        with: Option<std::path::PathBuf>,
    },
    /// Print one line per step: pc, instruction, active mask and the stack after the step.
    Trace {
        #[command(flatten)]
        common: Common,
    },
    /// Run once per value of a param (and per model, preset and split value) and print one
    /// metrics row per run.
    Sweep(sweep::SweepArgs),
    /// Reproduce one of the papers' figures from examples/figures.json: its sweep's rows, or
    /// for a stack-history figure the run's trace CSV.
    Figure {
        /// The figure's id (`bs-fig1`, `h100-double`, `hovland-fig5`, ...).
        id: String,
        /// The figures file; kernels and data are found beside it.
        #[arg(long, default_value = "examples/figures.json")]
        figures: std::path::PathBuf,
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        #[arg(long)]
        csv: bool,
    },
    /// Compile a CUDA-C kernel (or translate PTX) and print the generated code, with the
    /// reconvergence instructions the target needs.
    Compile {
        /// The C or PTX kernel file.
        file: std::path::PathBuf,
        /// Which kernel: a C `__global__` function or a PTX `.entry` (default: the first).
        #[arg(long)]
        entry: Option<String>,
        /// For CUDA C: compile with NVIDIA's nvcc (when installed) and print the translation of
        /// its PTX instead of warpscope's own compile.
        #[arg(long)]
        nvcc: bool,
        /// kepler (SSY/SYNC), volta (BSSY/BSYNC) or plain (branches only); default: the file's model's.
        #[arg(long)]
        target: Option<String>,
        /// Predicate short branches instead of branching (`on`/`off`).
        #[arg(long, value_name = "on|off", value_parser = load::on_off)]
        if_convert: Option<bool>,
    },
    /// Fit the timing model (`h100-timed`) to the H100 microbenchmarks in DIR (`raw.csv` and
    /// `micro.sm_90.sass`, from `calibration/h100/run.sh`) and print its data file.
    Calibrate {
        #[arg(default_value = "calibration/h100")]
        dir: std::path::PathBuf,
        /// Also write every calibration and held-out run, measured against predicted, as CSV.
        #[arg(long, value_name = "FILE")]
        residuals: Option<std::path::PathBuf>,
    },
    /// Find the bugs a GPU hides, as compute-sanitizer's racecheck, synccheck, initcheck and
    /// memcheck do: every launch of a program (its `main()` runs), or the kernel's launch. Exit
    /// 1 when anything is found.
    Check {
        #[command(flatten)]
        common: Common,
        /// One JSON object: the model, the findings (tool, severity, title, message, both
        /// sides with block, thread, step, line and element, and the count) and the launches
        /// not checked.
        #[arg(long)]
        json: bool,
    },
    /// Nsight Compute's per-instruction counters over the whole launch (every launch of a
    /// program, or `--launch N`'s): instructions executed, thread instructions executed,
    /// predicated-on thread instructions, branch targets and divergent ones, by address and line
    /// as ncu's source page lists them, and their totals.
    Counters {
        #[command(flatten)]
        common: Common,
        /// CSV, one row per instruction of each launch, with ncu's column names.
        #[arg(long, conflicts_with = "json")]
        csv: bool,
        /// One JSON object: each launch's kernel, end, instructions and totals.
        #[arg(long)]
        json: bool,
    },
    /// Print basic blocks, edges, immediate post-dominators and priorities.
    Cfg {
        /// The kernel file.
        file: std::path::PathBuf,
        #[arg(long)]
        json: bool,
        /// Read the kernel for this model: a C kernel compiles for its target, and `struct`
        /// shows the program the structural transform wrote (copies named `BB3'`).
        #[arg(long)]
        model: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { common, json, printed, dump } if program::is_program(&common) => {
            let shown = if json {
                program::Shown::Json
            } else if printed {
                program::Shown::Printed
            } else {
                program::Shown::Report
            };
            program::run(&common, shown, dump.as_deref())
        }
        Command::Run { common, dump: Some(name), .. } => common.with_link().and_then(|c| results::dump(&c, &name)),
        Command::Run { common, printed: true, .. } => common.with_link().and_then(|c| results::printed(&c)),
        Command::Run { common, json, dump: None, .. } => common.with_link().and_then(|c| report::run(&c, json)),
        Command::Compare { common, models, with } => common.with_link().and_then(|c| report::compare(&c, models.as_deref(), with)),
        Command::Trace { common } => common.with_link().and_then(|c| trace::trace(&c)),
        Command::Check { common, json } => common.with_link().and_then(|c| check_cmd::check(&c, json)),
        Command::Counters { common, csv, json } => common.with_link().and_then(|c| counters_cmd::counters(&c, csv, json)),
        Command::Sweep(args) => sweep::sweep(&args),
        Command::Figure { id, figures, json, csv } => figure::figure(&id, &figures, json, csv),
        Command::Calibrate { dir, residuals } => calibrate::calibrate(&dir, residuals.as_deref()),
        Command::Cfg { file, json, model } => cfg_cmd::cfg(&file, json, model.as_deref()),
        Command::Compile { file, target, if_convert, entry, nvcc } => {
            compile_cmd::compile(&file, target.as_deref(), if_convert, entry, nvcc)
        }
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}
