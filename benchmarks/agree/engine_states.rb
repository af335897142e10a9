# frozen_string_literal: true

# Replays an 18xx.games record in the platform's own engine (the public tobymao/18xx
# repository, MIT; kept outside this project) and prints the state after every action as one
# JSON line, for benchmarks/agree_18xx.py to compare with our engine.
#
#   ruby -I benchmarks/agree/rubylib benchmarks/agree/engine_states.rb ENGINE_DIR RECORD.json
#
# ENGINE_DIR is a checkout of the platform holding lib/engine. Only the engine's base files
# and the record's title folder are loaded (not lib/engine.rb, which loads every title and
# needs the require_all gem; rubylib/require_all.rb stands in for it).
#
# Output: a line {"index": -1, "id": 0, "state": ...} before the first action, then per
# record action in force {"index": i, "id": id, "type": type, "state": ...}; an action the
# engine refuses gives {"index", "id", "error"} and ends the output. A state is
#   {"players": {name: {"cash", "shares": {sym: percent}, "companies": [sym]}},
#    "corporations": {sym: {"cash", "trains": [name], "price", "president"}}, "phase", "acting", "round",
#    "finished", "idle", "end_reason"} ("idle": unfinished, and the acting entity has no action it
#    may take; "end_reason": why the game ended, "dnf" at the platform's cap on turns; "turn":
#    the stock round's number, the set of rounds it begins)
# with only open corporations (and minors) that have been started or hold anything.

require 'json'
require 'require_all'

engine_dir, record_path = ARGV
abort 'usage: engine_states.rb ENGINE_DIR RECORD.json' unless engine_dir && record_path
lib = File.expand_path('lib', engine_dir)
abort "no lib/engine under #{engine_dir}" unless File.directory?(File.join(lib, 'engine'))
$LOAD_PATH.unshift(lib)

%w[debug deep_freeze jaro_winkler logger game].each { |f| require "engine/#{f}" }
LOGGER.level = Logger::FATAL # the engine logs to standard output, which carries our lines

record = JSON.parse(File.read(record_path))
title = record['title'].to_s
folder = File.join(lib, 'engine', 'game', "g_#{title.downcase}")
abort "no folder #{folder} for the title #{title}" unless File.directory?(folder)
require "#{folder}.rb" if File.file?("#{folder}.rb")
require_rel File.join(folder, 'game.rb')
require_rel folder

game_class = Engine::Game.const_get("G#{title}").const_get(:Game)
players = record['players']
names = players.to_h { |p| p.is_a?(Hash) ? [p['id'] || p['name'], p['name']] : [p, p] }
settings = record['settings'] || {}
game = game_class.new(
  names,
  id: record['id'] || 0,
  actions: [],
  seed: settings['seed'],
  optional_rules: (settings['optional_rules'] || []).map(&:to_sym),
)
# As when the platform loads a saved game: no interactive extras while replaying.
game.instance_variable_set(:@loading, true)

def entity_name(entity)
  return nil unless entity
  return entity.name if entity.player?

  entity.id.to_s
end

def started?(corp)
  return true if corp.minor?

  !corp.share_price.nil? || corp.cash.positive? || !corp.trains.empty?
end

# Whether the game, unfinished, waits on an entity that has no action it may take.
def idle?(game)
  return false if game.finished

  step = game.round.active_step
  step.nil? || step.actions(game.current_entity).empty?
rescue StandardError
  true
end

def state_of(game)
  players = game.players.to_h do |p|
    shares = p.shares_by_corporation.each_with_object({}) do |(corp, held), out|
      percent = held.sum(&:percent)
      out[corp.id.to_s] = percent if percent.positive?
    end
    [p.name, { 'cash' => p.cash, 'shares' => shares, 'companies' => p.companies.map { |c| c.id.to_s }.sort }]
  end
  corps = (game.corporations + game.minors).reject(&:closed?).select { |c| started?(c) }.to_h do |c|
    price = c.respond_to?(:share_price) ? c.share_price&.price : nil
    president = c.owner&.player? ? c.owner.name : nil
    [c.id.to_s, { 'cash' => c.cash, 'trains' => c.trains.map(&:name), 'price' => price, 'president' => president }]
  end
  # A train a round holds for the operating corporation (1825's lease for the turn) is that
  # corporation's until it has run, as our engine keeps it on the charter until the dividend
  # (the platform drops it only as the next company begins).
  leased = game.round.respond_to?(:leased_train) ? game.round.leased_train : nil
  step = game.round.respond_to?(:active_step) ? game.round.active_step&.class&.name.to_s.split('::').last : nil
  leased = nil unless %w[HomeToken TrackAndToken Route].include?(step)
  operating = game.round.respond_to?(:current_operator) ? game.round.current_operator : nil
  corps[operating.id.to_s]['trains'] << leased.name if leased && operating && corps[operating.id.to_s]
  acting = begin
    entity_name(game.current_entity)
  rescue StandardError
    nil
  end
  { 'players' => players, 'corporations' => corps, 'phase' => game.phase&.name.to_s,
    'acting' => acting, 'round' => game.round.class.name.split('::').last, 'finished' => game.finished,
    'idle' => idle?(game), 'end_reason' => game.instance_variable_get(:@game_end_reason)&.to_s,
    'turn' => game.turn }
end

def emit(line)
  $stdout.puts(JSON.generate(line))
end

emit('index' => -1, 'id' => 0, 'state' => state_of(game))
actions = record['actions']
kept, = Engine::Game::Base.filtered_actions(actions)
actions.each_with_index do |action, index|
  unless kept[index]
    game.raw_actions << action # as the platform keeps an undone action: in the ids, not applied
    next
  end
  game.process_action(action)
  game.raw_actions.last['id'] = action['id'] unless game.raw_actions.empty?
  if game.exception
    emit('index' => index, 'id' => action['id'], 'type' => action['type'], 'error' => game.exception.message)
    break
  end
  emit('index' => index, 'id' => action['id'], 'type' => action['type'], 'state' => state_of(game))
end
