# Run by rubyrig with a candidate interpreter to describe it: one "key<TAB>value" line per fact.
# Plain old Ruby syntax on purpose: this file must load on any CRuby from 2.5 and on JRuby.
require "rbconfig"

facts = {}
facts["engine"] = defined?(RUBY_ENGINE) ? RUBY_ENGINE : "ruby"
facts["engine_version"] = defined?(RUBY_ENGINE_VERSION) ? RUBY_ENGINE_VERSION : RUBY_VERSION
facts["ruby_version"] = RUBY_VERSION
facts["description"] = RUBY_DESCRIPTION
facts["platform"] = RUBY_PLATFORM
facts["yjit"] = (defined?(RubyVM::YJIT) ? "true" : "false")
libs = [RbConfig::CONFIG["MAINLIBS"], RbConfig::CONFIG["LIBS"], RbConfig::CONFIG["LIBRUBYARG_SHARED"]].join(" ")
facts["jemalloc_linked"] = (/jemalloc/.match?(libs) ? "true" : "false")
facts["configure_args"] = RbConfig::CONFIG["configure_args"].to_s
facts.each { |key, value| $stdout.puts(key + "\t" + value.to_s.gsub(/\s+/, " ")) }
