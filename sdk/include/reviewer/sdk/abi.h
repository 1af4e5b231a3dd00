/* The C boundary between the reviewer host and a plugin shared object.
 *
 * Only plain C types cross it: no C++ object, exception, std::function or allocator carrying
 * plugin-side code. Strings are (pointer, size) views that stay valid only for the duration of
 * the call that passes them; whoever receives one copies it. Structs that may grow start with
 * their size and only ever grow at the end (as sqlite3_api_routines does).
 *
 * The ABI generation is part of the entry symbol's name (`reviewer_plugin_v1`), and that symbol
 * lives in the ELF section `reviewer_plugins`, so the host can read which generation a file was
 * built for without loading it. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REVIEWER_ABI_VERSION 1
#define REVIEWER_ENTRY_SECTION "reviewer_plugins"
#define REVIEWER_ENTRY_PREFIX "reviewer_plugin_v"

typedef struct reviewer_str {
  const char* data;
  size_t size;
} reviewer_str;

typedef struct reviewer_location {
  reviewer_str file;
  uint32_t line; /* 1-based; 0 = unknown */
  uint32_t column;
} reviewer_location;

/* A `with:` input or an `env:` entry: a literal value with where it was written. */
typedef struct reviewer_entry {
  reviewer_str name;
  reviewer_str value;
  reviewer_location location;
} reviewer_entry;

/* One workflow step as the planner read it. Optional strings have data == NULL when absent. */
typedef struct reviewer_step_view {
  size_t struct_size;
  reviewer_str job_id;
  uint32_t index;      /* 0-based position in the job */
  reviewer_str name;   /* `name:` */
  reviewer_str action; /* `owner/repo[/path]` of `uses:`, or "run" */
  reviewer_str ref;    /* the part after '@' */
  reviewer_str run;    /* the script of a `run:` step */
  reviewer_str shell;  /* `shell:` */
  reviewer_str working_directory;
  reviewer_str if_condition;
  int64_t timeout_minutes; /* -1 when absent */
  const reviewer_entry* inputs;
  size_t input_count;
  const reviewer_entry* env;
  size_t env_count;
  reviewer_location location;      /* the step's first key */
  reviewer_location uses_location; /* `uses:` or `run:` value */
  reviewer_location timeout_location;
  /* 1.7 The names of the inputs whose value is the run's GITHUB_TOKEN (`${{ secrets.GITHUB_TOKEN
   * }}` or `${{ github.token }}`, alone), which only the real run has; their value in `inputs` is
   * the expression as written. Read only when struct_size covers these members. */
  const reviewer_str* run_token_inputs;
  size_t run_token_input_count;
} reviewer_step_view;

/* What the plan phase may learn about the step's job. New members are only ever appended; each
 * carries the SDK version that added it, and a plugin reads one only when struct_size covers it. */
typedef struct reviewer_job_context {
  size_t struct_size;
  /* 1.0 */ reviewer_str job_id;
  /* 1.0 */ reviewer_str workflow_file;
  /* 1.0 */ uint32_t step_count;
  /* 1.0 The step stands where the job's checkout must: the first step, or, from host 1.10, the
   * first after those whose plugins claim REVIEWER_CAPABILITY_BEFORE_CHECKOUT. */
  /* 1.0 */ int32_t is_first_step;
  /* 1.1 The workflow-wide view: every step of every job of the workflow (jobs outside the planned
   * `needs` closure included, this step included), in file order, as written. Only job_id, index,
   * name, action, ref, run, inputs and location are filled; input values are raw, `${{ }}`
   * expressions included, because these steps are not all planned. NULL when the host has no
   * view (then a plugin that needs one must refuse). */
  /* 1.1 */ const reviewer_step_view* workflow_steps;
  /* 1.1 */ size_t workflow_step_count;
  /* 1.3 The jobs GitHub completes before this job starts: every job it needs, transitively, by
   * declared id (this job not included). NULL when the host does not say (then a plugin that
   * needs it must refuse). */
  /* 1.3 */ const reviewer_str* earlier_jobs;
  /* 1.3 */ size_t earlier_job_count;
} reviewer_job_context;

/* 1.11 The most bytes read_repository_file reads of one file, whatever bound a plugin asks for. */
#define REVIEWER_REPOSITORY_FILE_MAX_BYTES 1048576

/* Where plan() reports its decision. Exactly one of skip/run/refuse must be called; refuse may be
 * called several times (every reason is reported). pin records a runtime the resolver must
 * satisfy. New members are only ever appended; each carries the SDK version that added it. */
typedef struct reviewer_plan_sink {
  size_t struct_size;
  void* host;
  /* 1.0 */ void (*skip)(void* host, reviewer_str assertion);
  /* 1.0 */ void (*run)(void* host);
  /* 1.0 */ void (*refuse)(void* host, reviewer_str rule, reviewer_str message,
                           reviewer_location location);
  /* 1.0 */ void (*pin)(void* host, reviewer_str runtime, reviewer_str version,
                        reviewer_location location);
  /* 1.0 */ void (*assert_fetch_depth)(void* host, int32_t depth);
  /* 1.4 Withdrawn in 1.11: the host knew each action's version-file rules; a plugin now reads the
   * file itself through read_repository_file. The slot stays so later members keep their offsets;
   * a host from 1.11 answers every call -1 after refusing the step (plugin-protocol, naming
   * read_repository_file), without calling `deliver`. */
  /* 1.4 */ int32_t (*read_version_file)(void* host, int32_t rules, reviewer_str path,
                                         reviewer_location where, void* out,
                                         void (*deliver)(void* out, reviewer_str version,
                                                         reviewer_location location));
  /* 1.9 Like pin, for a version the action looks up in the runner's tool cache first: it takes
   * the highest cached version that satisfies it, and only without one the newest release
   * (actions/setup-node without check-latest). The host's planner knows the runner image and
   * decides which cached line that is when it can; otherwise the pin is read as pin's. */
  /* 1.9 */ void (*pin_from_tool_cache)(void* host, reviewer_str runtime, reviewer_str version,
                                        reviewer_location location);
  /* 1.11 Reads the file `path` of the repository under review, relative to the workspace (the
   * plugin resolves a step input against the workspace itself, as the action does), following no
   * link on the way or at the end, and at most `max_bytes` bytes of it (the host lowers a larger
   * bound to REVIEWER_REPOSITORY_FILE_MAX_BYTES). `where` is the step input that names the file (it
   * locates what the launcher reports should the file change). Answers:
   *   0  read: `deliver(out, bytes)` called once with the whole file;
   *   1  it does not exist (nor does anything of the repository when the host plans without its
   *      files): `deliver` is not called;
   *  -1  it may not be read: a symbolic link (the file or a directory on the way), not a regular
   *      file, larger than the bound, or a path that is not plain (empty, absolute, an empty, '.'
   *      or '..' component, a NUL byte): `deliver(out, why)` called once with the reason in words,
   *      a clause that reads after "which" ("is not a regular file").
   * The host refuses nothing itself: the plugin decides what each answer means for the step. The
   * plan records every answer (the SHA-256 of the bytes read), and the launcher reads each file
   * again just before the step executes and fails it (version-file-changed) when one no longer
   * gives the same answer: an earlier step may have written it, and the action reads it when it
   * runs. */
  /* 1.11 */ int32_t (*read_repository_file)(void* host, reviewer_str path, size_t max_bytes,
                                             reviewer_location where, void* out,
                                             void (*deliver)(void* out, reviewer_str bytes));
} reviewer_plan_sink;

/* The worktree's history shape as the host's libgit2 guard read it. */
typedef struct reviewer_history_shape {
  int32_t shallow;
  int64_t commit_count;
  int64_t tag_count;
} reviewer_history_shape;

typedef struct reviewer_run_request {
  reviewer_str script;
  reviewer_str shell; /* "" (bash -e) or "bash" (bash --noprofile --norc -eo pipefail) */
  reviewer_str working_directory; /* relative to the worktree; "" = the worktree */
  int64_t timeout_minutes;        /* -1 = only the job's limit */
  const reviewer_entry* env;
  size_t env_count;
} reviewer_run_request;

/* 1.3 What walk_worktree reports an entry as (links are never followed). */
#define REVIEWER_ENTRY_FILE 0
#define REVIEWER_ENTRY_DIRECTORY 1
#define REVIEWER_ENTRY_LINK 2
#define REVIEWER_ENTRY_OTHER 3

/* 1.3 One file of an artifact: a worktree file and its path inside the artifact. */
typedef struct reviewer_artifact_file {
  reviewer_str source; /* relative to the worktree */
  reviewer_str path;   /* inside the artifact: relative, '/'-separated, no '.' or '..' */
} reviewer_artifact_file;

/* The narrow services a plugin may use at execute time. The host owns every outcome it can
 * observe itself: run_script's exit status is recorded by the host, not taken from the plugin.
 * New members are only ever appended; each carries the SDK version that added it. */
typedef struct reviewer_host_services {
  size_t struct_size;
  void* host;
  /* 1.0 */ void (*log)(void* host, reviewer_str message);
  /* 1.0 */ int32_t (*run_script)(void* host, const reviewer_run_request* request);
  /* 1.0 */ int32_t (*history_shape)(void* host, reviewer_history_shape* out);
  /* 1.0 */ void (*fail)(void* host, reviewer_str rule, reviewer_str message);
  /* 1.2 Reads a file of the worktree (a relative path, no '..', no link followed, at most
   * 1 MiB): 0 and `deliver(out, bytes)` called once when read, 1 when it does not exist, -1 when
   * it may not be read (a link, not a regular file, too large, a path leaving the worktree). */
  /* 1.2 */ int32_t (*read_worktree_file)(void* host, reviewer_str path, void* out,
                                          void (*deliver)(void* out, reviewer_str bytes));
  /* 1.3 The artifact services (upload-artifact and download-artifact are emulated: the files move
   * through a store the launcher holds, out of every step's reach, for later steps and jobs of the
   * same review build). Each returns -1 after failing the step itself with a named rule.
   *
   * walk_worktree: `dir` (a relative worktree path; "" = the worktree) and every entry below it,
   * parents before children, each name's entries in byte order, without following links (a link is
   * reported, never entered): `visit(out, path, kind)` once per entry, path relative to the
   * worktree. 0 when walked, 1 when `dir` does not exist. Bounded (count and depth). */
  /* 1.3 */ int32_t (*walk_worktree)(void* host, reviewer_str dir, void* out,
                                     void (*visit)(void* out, reviewer_str path, int32_t kind));
  /* 1.3 store_artifact: artifact `name` made of `files`, each read now without following links
   * (a regular file only), bounded in count and size. 0 when stored. A name already stored fails.
   */
  /* 1.3 */ int32_t (*store_artifact)(void* host, reviewer_str name,
                                      const reviewer_artifact_file* files, size_t count);
  /* 1.3 list_artifacts: `deliver(out, name)` once per stored artifact, in upload order. 0. */
  /* 1.3 */ int32_t (*list_artifacts)(void* host, void* out,
                                      void (*deliver)(void* out, reviewer_str name));
  /* 1.3 restore_artifact: writes artifact `name`'s files below `dir` (a relative worktree path;
   * "" = the worktree), making directories as needed, following no link, replacing regular files.
   * 0 when written, 1 when no artifact has that name. */
  /* 1.3 */ int32_t (*restore_artifact)(void* host, reviewer_str name, reviewer_str dir);
} reviewer_host_services;

typedef struct reviewer_reviewed_ref {
  const char* sha; /* full 40-hex commit SHA */
  const char* tag; /* the release tag it was confirmed against */
} reviewer_reviewed_ref;

/* An action id the plugin handles, with its reviewed refs ("run" has none). */
typedef struct reviewer_claim {
  const char* action;
  const reviewer_reviewed_ref* refs;
  size_t ref_count;
} reviewer_claim;

/* 1.10 What a claimed action's step is to the core's rules of a job, a bit each. The core knows no
 * action by name: a plugin says which of its actions checks the repository out. */
/* The step checks the repository out. The host's clone stands in for it, so a job begins with one,
 * and only such a step's plan may assert a fetch depth (assert_fetch_depth). */
#define REVIEWER_CAPABILITY_CHECKOUT 1u
/* The step reads and writes nothing of the worktree, so it may stand before the checkout. */
#define REVIEWER_CAPABILITY_BEFORE_CHECKOUT 2u

/* 1.11 A refusal rule of the plugin's own, with its catalogue entry, for a rule its code refuses
 * under that the core's catalogue (docs/refusals.md, `reviewer explain`) does not hold. `id` is
 * lower-case words of letters and digits joined by '-' (at most 64 bytes); `text` is the entry in
 * Markdown (at most 16 KiB): what is refused, why the review cannot reproduce it, and what the
 * workflow's author can write instead. `reviewer explain`, SARIF output and `reviewer fixtures`
 * read it; an id the core's catalogue already holds is refused (plugin-invalid-rule). */
typedef struct reviewer_rule_entry {
  const char* id;
  const char* text;
} reviewer_rule_entry;

typedef void* reviewer_action_handle;

typedef struct reviewer_plugin_descriptor {
  uint32_t abi_version;
  uint32_t struct_size;
  const char* sdk_version;
  const char* name; /* must equal the file's stem */
  const reviewer_claim* claims;
  size_t claim_count;
  /* Returns NULL on failure; never throws. */
  reviewer_action_handle (*create)(void);
  void (*destroy)(reviewer_action_handle);
  void (*plan)(reviewer_action_handle, const reviewer_step_view*, const reviewer_job_context*,
               const reviewer_plan_sink*);
  void (*execute)(reviewer_action_handle, const reviewer_step_view*, const reviewer_host_services*);
  /* 1.5 The date (YYYY-MM-DD) the claims' reviewed releases were last checked against the
   * action's release tags: a release tag is taken as the newest reviewed release it can name as
   * of that date. NULL: undated (a plugin built before 1.5, whose slot was reserved, reads so). */
  const char* reviewed_on;
  /* 1.10 One REVIEWER_CAPABILITY_* mask per claim, in the claims' order. NULL: none (a plugin
   * built before 1.10, whose slot was reserved, reads so). */
  const uint32_t* capabilities;
  /* 1.11 The plugin's own refusal rules, with their catalogue entries. NULL and 0: none (a
   * plugin built before 1.11, whose two slots were reserved, reads so). */
  const reviewer_rule_entry* rules;
  size_t rule_count;
} reviewer_plugin_descriptor;

#ifdef __cplusplus
}
#endif
