# frozen_string_literal: true

# A stand-in for the `require_all` gem, which the platform's engine asks for and which may
# not be installed: only `require_rel`, the one call the engine's files make. It loads every
# Ruby file under the named folders (relative to the calling file), retrying a file that
# needs a constant a later file defines until no file makes progress.

def require_rel(*paths)
  base = File.dirname(caller_locations(1, 1).first.absolute_path)
  files = paths.flatten.flat_map do |path|
    full = File.expand_path(path, base)
    if File.directory?(full)
      Dir.glob(File.join(full, '**', '*.rb')).sort
    else
      [full.end_with?('.rb') ? full : "#{full}.rb"]
    end
  end
  pending = files
  until pending.empty?
    failed = []
    errors = []
    pending.each do |file|
      require file
    rescue NameError => e
      failed << file
      errors << e
    end
    raise errors.first if failed.size == pending.size

    pending = failed
  end
  true
end
